/**
 * One-call code (engine/one-call.ts): what `hub call` and a direct tool run, made from an address
 * and an input, and recognized again; run in the real sandbox, its input reaches the tool as it
 * was given, `"__proto__"` keys and line separators included.
 */
import { describe, expect, it } from 'vitest';
import { CALL_INPUT_BYTES, callCode, oneCallOf } from '../../engine/one-call.ts';
import { refusalOf } from '../hub-error.ts';

describe('one-call code', () => {
  it('calls the one tool with its input as a JSON string, and the connection when one is named', () => {
    expect(callCode('board.post', { text: 'hi' })).toBe(
      'return await board.post(JSON.parse("{\\"text\\":\\"hi\\"}"));',
    );
    expect(callCode('board.post', {}, 'work')).toBe(
      'return await board.post(JSON.parse("{}"), {"connection":"work"});',
    );
  });

  it('refuses anything that is not a tool address, so nothing else reaches the code', () => {
    for (const address of ['board', 'board.post();process', 'Board.post', 'board.po-st', '.post']) {
      expect(refusalOf(() => callCode(address, {}))).toBe(
        `invalid_input: "${address}" is not a tool address (namespace.tool)`,
      );
    }
  });

  it('keeps a "__proto__" key a key, and line separators inside the literal escaped', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"text":"a\u2028b\u2029c"}') as Record<string, unknown>;
    const code = callCode('board.post', input);
    expect(code).not.toMatch(/[\u2028\u2029]/);
    const body = /JSON\.parse\((".*")\)\);$/.exec(code)?.[1] ?? '';
    // The literal, read as JavaScript reads it, is the input's JSON.
    const parsed = JSON.parse(new Function(`return ${body};`)() as string) as Record<string, unknown>;
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(input));
  });

  it('is recognized again, and nothing else is', () => {
    const input = { text: 'a "quoted" \\ text\u2028', list: [1, 2], __proto__x: null };
    expect(oneCallOf(callCode('board.post', input))).toEqual({
      address: 'board.post',
      input,
      connection: undefined,
    });
    expect(oneCallOf(callCode('board.post', {}, 'wo"rk'))).toEqual({
      address: 'board.post',
      input: {},
      connection: 'wo"rk',
    });
    for (const code of [
      'return await board.post({"text":"hi"});',
      'return await board.post(JSON.parse("{}")); await board.post(JSON.parse("{}"));',
      'return await board.post(JSON.parse("{}"), {"connection":"a"}); board.post({})',
      `${callCode('board.post', {})}\nreturn 1;`,
      'return await board.post(JSON.parse("{ }"));',
    ]) {
      expect(oneCallOf(code), code).toBeUndefined();
    }
  });

  it('refuses an input over what one call takes, saying so', () => {
    const input = { text: 'x'.repeat(CALL_INPUT_BYTES) };
    expect(refusalOf(() => callCode('board.post', input))).toMatch(
      /^invalid_input: the input to board\.post is over 1,048,576 bytes of JSON, the most one tool call takes; nothing was called\./,
    );
  });
});
