/**
 * Inert text (engine/inert.ts): exact escapes for every class of character a terminal acts on or
 * a person cannot see, what is kept, and JSON that stays JSON and parses back to the same value.
 * Inputs are written with `\x` and `\u` escapes; expectations with String.raw, so a backslash in
 * an expectation is a backslash in the output.
 */
import { describe, expect, it } from 'vitest';
import { inertJson, inertLine, inertText } from '../../engine/inert.ts';

describe('inertLine', () => {
  it.each([
    // C0: ESC, CR, BEL, backspace, NUL, form feed, vertical tab; LF and CR by name
    ['\x1b[2J\x1b[H clear', String.raw`\x1b[2J\x1b[H clear`],
    ['ok\rforged', String.raw`ok\rforged`],
    ['ok\nforged', String.raw`ok\nforged`],
    ['ring\x07', String.raw`ring\x07`],
    ['abc\b\b\bxyz', String.raw`abc\x08\x08\x08xyz`],
    ['\x00\x0b\x0c\x1f', String.raw`\x00\x0b\x0c\x1f`],
    // DEL and C1: U+009B is an 8-bit CSI, U+009D an 8-bit OSC
    ['\x7f', String.raw`\x7f`],
    ['\u0080\u009b2J\u009d8;;x\u009c\u009f', String.raw`\x80\x9b2J\x9d8;;x\x9c\x9f`],
    // an OSC 8 hyperlink whose text hides where it goes
    [
      '\x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07',
      String.raw`\x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07`,
    ],
    // bidi embeddings and overrides, isolates, marks (Trojan Source)
    ['\u202a\u202b\u202c\u202d\u202e', String.raw`\u202a\u202b\u202c\u202d\u202e`],
    ['\u2066\u2067\u2068\u2069', String.raw`\u2066\u2067\u2068\u2069`],
    ['\u200e\u200f\u061c', String.raw`\u200e\u200f\u061c`],
    ['safe \u202eyrotisoper\u202c', String.raw`safe \u202eyrotisoper\u202c`],
    // line and paragraph separators
    ['a\u2028b\u2029c', String.raw`a\u2028b\u2029c`],
    // invisible format characters: zero-width space, word joiner, BOM, soft hyphen, a tag
    ['\u200b\u2060\ufeff\u00ad', String.raw`\u200b\u2060\ufeff\xad`],
    ['hi\u{e0041}\u{e0042}', String.raw`hi\u{e0041}\u{e0042}`],
  ])('%j -> %s', (input, expected) => {
    expect(inertLine(input)).toBe(expected);
  });

  it('keeps TAB, printable text, emoji with their joiners and a lone backslash as they are', () => {
    const kept = 'a\tb café 日本語 👩\u200d💻 ❤\ufe0f \u200c \\x1b C:\\path "quoted"';
    expect(inertLine(kept)).toBe(kept);
  });

  it('is idempotent: a field made inert can be made inert again, whole', () => {
    const once = inertLine('\x1b[8mhidden\x1b[28m\n\u202e\u{e0041}');
    expect(inertLine(once)).toBe(once);
    expect(inertText(once)).toBe(once);
  });
});

describe('inertText', () => {
  it('keeps LF as a line break and escapes the rest as inertLine does', () => {
    expect(inertText('one\ntwo\r\n\x1b[1Athree\u2028four')).toBe(
      ['one', String.raw`two\r`, String.raw`\x1b[1Athree\u2028four`].join('\n'),
    );
  });
});

describe('inertJson', () => {
  const value = {
    text: 'esc \x1b del \x7f csi \u009b bidi \u202e ls \u2028 ps \u2029 zwsp \u200b tag \u{e0041} tab \t nl \n',
    nested: [{ 'key\u202e': 'é 👩\u200d💻' }],
  };

  it('escapes what JSON.stringify leaves raw as \\uhhhh, a surrogate pair beyond U+FFFF', () => {
    expect(inertJson(JSON.stringify(value))).toBe(
      String.raw`{"text":"esc \u001b del \u007f csi \u009b bidi \u202e ls \u2028 ps \u2029 zwsp \u200b tag \udb40\udc41 tab \t nl \n","nested":[{"key\u202e":"é 👩` +
        '\u200d💻"}]}',
    );
  });

  it('keeps the LF and spaces of pretty-printing, and parses back to the same value', () => {
    const pretty = inertJson(JSON.stringify(value, null, 2));
    expect(pretty.split('\n')).toHaveLength(JSON.stringify(value, null, 2).split('\n').length);
    expect(JSON.parse(pretty)).toEqual(value);
    const raw = [...pretty].filter(
      (c) => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c) && c !== '\n' && c !== '\u200d',
    );
    expect(raw).toEqual([]);
  });
});
