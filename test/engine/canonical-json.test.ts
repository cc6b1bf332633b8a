/**
 * Canonical JSON (engine/canonical-json.ts) as exact strings: what digests are taken over, so
 * every byte here is part of every contract digest and argument digest the hub stores.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../engine/canonical-json.ts';

describe('canonicalJson', () => {
  it('writes scalars as JSON.stringify does', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson(0)).toBe('0');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(-1.5)).toBe('-1.5');
    expect(canonicalJson(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(5e-7)).toBe('5e-7');
    expect(canonicalJson('')).toBe('""');
    expect(canonicalJson('say "hi"\n\t\\')).toBe('"say \\"hi\\"\\n\\t\\\\"');
    expect(canonicalJson('\u0001')).toBe('"\\u0001"');
    expect(canonicalJson('é😀\u2028')).toBe('"é😀\u2028"');
    expect(canonicalJson('\ud800')).toBe('"\\ud800"');
  });

  it('sorts object keys by code unit, with no whitespace', () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe('{"a":2,"b":1,"c":3}');
    expect(canonicalJson({ b: 1, B: 2, _: 3, 1: 4, 10: 5, 2: 6, '': 7 })).toBe(
      '{"":7,"1":4,"10":5,"2":6,"B":2,"_":3,"b":1}',
    );
    expect(canonicalJson({})).toBe('{}');
  });

  it('sorts unicode keys by UTF-16 code unit, not by code point', () => {
    // U+1F600 is stored as the surrogates D83D DE00, so it sorts before U+FF5E.
    expect(canonicalJson({ '～': 5, '😀': 4, é: 3, z: 2, Z: 1 })).toBe('{"Z":1,"z":2,"é":3,"😀":4,"～":5}');
    // no Unicode normalization: a decomposed é (e + U+0301) is another key, sorted by its 'e'
    expect(canonicalJson({ '\u00e9': 2, 'e\u0301': 1 })).toBe('{"e\u0301":1,"\u00e9":2}');
  });

  it('sorts nested objects too, including objects inside arrays', () => {
    expect(canonicalJson({ z: { y: 1, x: { b: [{ d: 1, c: 2 }], a: null } }, a: [] })).toBe(
      '{"a":[],"z":{"x":{"a":null,"b":[{"c":2,"d":1}]},"y":1}}',
    );
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson(['b', 'a', ['d', 'c']])).toBe('["b","a",["d","c"]]');
    expect(canonicalJson([])).toBe('[]');
  });

  it('drops undefined members and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: 1, c: { d: undefined } })).toBe('{"b":1,"c":{}}');
    expect(canonicalJson([undefined, 1, undefined])).toBe('[null,1,null]');
  });

  it('writes the holes of a sparse array as null, as JSON.stringify does', () => {
    const sparse: unknown[] = [1];
    sparse[3] = 4;
    expect(canonicalJson(sparse)).toBe('[1,null,null,4]');
    expect(canonicalJson(sparse)).toBe(JSON.stringify(sparse));
  });

  it('keeps an own __proto__ member as data', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it('is the same string for every key order', () => {
    const a = {
      name: 'x',
      schema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } } },
    };
    const b = {
      schema: { properties: { n: { type: 'number' }, q: { type: 'string' } }, type: 'object' },
      name: 'x',
    };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['a function', () => 1],
    ['a bigint', 10n],
    ['a symbol', Symbol('s')],
    ['undefined at the top', undefined],
    ['NaN inside an object', { a: Number.NaN }],
    ['Infinity inside an array', [1, Number.POSITIVE_INFINITY]],
    ['a function member', { f: () => 1 }],
    ['a nested bigint', { a: [{ b: 1n }] }],
  ])('throws a TypeError on %s', (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });
});
