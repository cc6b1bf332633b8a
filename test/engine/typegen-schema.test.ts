/**
 * JSON Schema -> TypeScript, one schema feature at a time, as exact strings: these double as the
 * documentation of what `describe` prints for each (draft-07 and 2020-12 alike), and of the traps
 * it does not fall into (`A | B[]` for an array of a union, a description-only schema as a record,
 * `additionalProperties` that does not compile). The last test compiles every answer given.
 * References, annotations and invalid schemas: typegen-refs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { compilesEveryAnswer, inputType, propertyType } from './typegen-fixtures.ts';

describe('scalars, literals and nullability', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: 'number' }, 'number'],
    [{ type: 'integer' }, 'number'],
    [{ type: 'boolean' }, 'boolean'],
    [{ type: 'null' }, 'null'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ type: ['null', 'integer', 'boolean'] }, 'number | boolean | null'],
    [{ type: 'string', nullable: true }, 'string | null'],
    [{ type: 'number', 'x-nullable': true }, 'number | null'],
    [{ const: 'fixed' }, '"fixed"'],
    [{ const: null }, 'null'],
    [{ const: { a: [1, 'x'] } }, '{ a: [1, "x"] }'],
    [{ enum: ['a', 1, true, null] }, '"a" | 1 | true | null'],
    [{ enum: [true, false] }, 'boolean'],
    [{ enum: [] }, 'never'],
    [{ enum: [{ kind: 'x' }, [1, 2], {}] }, '{ kind: "x" } | [1, 2] | { [key: string]: never }'],
    [{ type: 'string', enum: ['a', 1, null] }, '"a"'],
    [{ type: 'integer', enum: [1, 2.5, '3'] }, '1'],
    [{ type: 'object', enum: [[1], { a: 1 }, null] }, '{ a: 1 }'],
    [{ type: 'string', enum: ['a', 'b'], nullable: true }, '"a" | "b" | null'],
  ])('%j is %s', (schema, type) => {
    expect(propertyType(schema)).toBe(type);
  });

  it('escapes string literals', () => {
    expect(
      propertyType({ enum: ['say "hi"', 'back\\slash', 'tab\there', 'line\u2028sep', 'new\nline'] }),
    ).toBe(String.raw`"say \"hi\"" | "back\\slash" | "tab\there" | "line\u2028sep" | "new\nline"`);
  });
});

describe('schemas that say nothing, or everything', () => {
  it.each([
    [{}, 'unknown'],
    [true, 'unknown'],
    [false, 'never'],
    [{ title: 'Anything' }, 'unknown'],
  ])('%j is %s', (schema, type) => {
    expect(propertyType(schema)).toBe(type);
  });

  it('keeps a description-only schema unknown, with its description, not a record', () => {
    expect(inputType({ type: 'object', properties: { p: { description: 'Anything at all.' } } })).toBe(
      '{\n\t\t/** Anything at all. */\n\t\tp?: unknown;\n\t}',
    );
  });
});

describe('unions, intersections and arrays', () => {
  it.each([
    [{ type: 'array', items: { type: ['string', 'number'] } }, '(string | number)[]'],
    [{ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, '(string | null)[]'],
    [{ type: 'array', items: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }, '(string | number)[][]'],
    [{ type: 'array' }, 'unknown[]'],
    [{ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, 'string | string[]'],
    [{ anyOf: [{ type: 'string' }, { type: 'string', format: 'uri' }, {}] }, 'unknown'],
    [{ allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ type: 'number' }, { type: 'boolean' }] }] }, '(string | number) & (number | boolean)'],
    [{ allOf: [{ type: 'string' }, {}] }, 'string'],
    [{ allOf: [{ type: 'string' }, false] }, 'never'],
    [{ type: 'object', properties: { a: { type: 'string' } }, allOf: [{ properties: { b: { type: 'number' } }, required: ['b'] }] }, '{ a?: string } & { b: number }'],
    [
      { type: 'array', items: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { anyOf: [{ type: 'object', properties: { b: { type: 'string' } } }, { type: 'object', properties: { c: { type: 'string' } } }] }] } },
      '({ a?: string } & ({ b?: string } | { c?: string }))[]',
    ],
    [{ oneOf: [{ type: 'object', properties: { kind: { const: 'a' }, a: { type: 'string' } }, required: ['kind'] }, { type: 'object', properties: { kind: { const: 'b' } }, required: ['kind'] }] }, '{ kind: "a"; a?: string } | { kind: "b" }'],
    [{ type: 'object', oneOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }] }, '{ a: string } | { b: number }'],
  ])('%j is %s', (schema, type) => {
    expect(propertyType(schema)).toBe(type);
  }); // biome-ignore format: one case a line reads better

  it('intersects an object with a oneOf of required sets, so exactly what the schema requires is required', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(inputType(schema)).toBe('{ a?: string; b?: string } & ({ a: unknown } | { b: unknown })');
  });
});

describe('tuples', () => {
  it.each([
    ['draft-07 items array, closed', { items: [{ type: 'string' }, { type: 'number' }], additionalItems: false, minItems: 1 }, '[string, number?]'],
    ['draft-07 items array, open by default', { items: [{ type: 'string' }, { type: ['string', 'number'] }] }, '[string?, (string | number)?, ...unknown[]]'],
    ['draft-07 additionalItems schema', { items: [{ type: 'string' }], additionalItems: { type: 'boolean' } }, '[string?, ...boolean[]]'],
    ['2020-12 prefixItems, closed', { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2 }, '[string, number]'],
    ['2020-12 prefixItems with a rest', { prefixItems: [{ type: ['string', 'null'] }], items: { anyOf: [{ type: 'number' }, { type: 'boolean' }] } }, '[(string | null)?, ...(number | boolean)[]]'],
    ['maxItems cuts the rest', { prefixItems: [{ type: 'string' }], maxItems: 1 }, '[string?]'],
    ['items: false alone', { items: false }, '[]'],
  ])('%s', (_, schema, type) => {
    expect(propertyType({ type: 'array', ...schema })).toBe(type);
  }); // biome-ignore format: one case a line reads better
});

describe('objects', () => {
  it('lists required members first, in schema order, and allows only declared members when additionalProperties is absent or false', () => {
    const properties = { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'boolean' } };
    expect(inputType({ type: 'object', properties, required: ['c', 'a'] })).toBe(
      '{ a: string; c: boolean; b?: number }',
    );
    expect(inputType({ type: 'object', properties, additionalProperties: false })).toBe(
      '{ a?: string; b?: number; c?: boolean }',
    );
  });

  it('adds `[key: string]: unknown` for additionalProperties: true', () => {
    expect(
      inputType({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }),
    ).toBe('{ a?: string; [key: string]: unknown }');
  });

  it('unions the members (and undefined, for optional ones) into an additionalProperties index signature, so it compiles', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'boolean' } },
      required: ['a'],
      additionalProperties: { type: 'number' },
    };
    expect(inputType(schema)).toBe(
      '{ a: string; b?: boolean; [key: string]: number | string | boolean | undefined }',
    );
    expect(
      inputType({
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: { type: 'object', properties: { v: { type: 'number' } } },
      }),
    ).toBe('{ name: string; [key: string]: { v?: number } | string }');
  });

  it('turns patternProperties into an index signature that says which keys', () => {
    expect(inputType({ type: 'object', patternProperties: { '^[a-z]+$': { type: 'number' } } })).toBe(
      '{\n\t\t/** Keys matching /^[a-z]+$/ */\n\t\t[key: string]: number;\n\t}',
    );
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: false,
    };
    expect(inputType(schema)).toBe(
      '{\n\t\ta: string;\n\t\t/** Keys matching /^x-/ */\n\t\t[key: string]: string;\n\t}',
    );
  });

  it('types an object without members as any object, or as no members at all when additionalProperties is false', () => {
    expect(inputType({ type: 'object' })).toBe('{ [key: string]: unknown }');
    expect(inputType({ type: 'object', properties: {}, additionalProperties: false })).toBe(
      '{ [key: string]: never }',
    );
    expect(propertyType({ type: 'object', additionalProperties: { type: 'string' } })).toBe(
      '{ [key: string]: string }',
    );
  });

  it('keeps a required name missing from properties required, typed by what other keys may be', () => {
    const properties = { a: { type: 'string' } };
    expect(inputType({ type: 'object', properties, required: ['a', 'b'] })).toBe('{ a: string; b: unknown }');
    expect(
      inputType({ type: 'object', properties, required: ['b'], additionalProperties: { type: 'number' } }),
    ).toBe('{ b: number; a?: string; [key: string]: number | string | undefined }');
    expect(inputType({ type: 'object', properties, required: ['b'], additionalProperties: false })).toBe(
      '{ b: unknown /* required, but additionalProperties is false */; a?: string }',
    );
  });

  it('reads object keywords as an object when type is absent', () => {
    expect(inputType({ properties: { a: { type: 'string' } }, required: ['a'] })).toBe('{ a: string }');
  });

  it('quotes property names that are not identifiers', () => {
    const properties = {
      'a-b': {},
      '2x': {},
      $ok: {},
      _ok: {},
      'sp ace': {},
      '': {},
      'quo"te': {},
      default: {},
    };
    expect(inputType({ type: 'object', properties })).toBe(
      [
        '{',
        '\t\t"a-b"?: unknown;',
        '\t\t"2x"?: unknown;',
        '\t\t$ok?: unknown;',
        '\t\t_ok?: unknown;',
        '\t\t"sp ace"?: unknown;',
        '\t\t""?: unknown;',
        '\t\t"quo\\"te"?: unknown;',
        '\t\tdefault?: unknown;',
        '\t}',
      ].join('\n'),
    );
  });
});

compilesEveryAnswer(60);
