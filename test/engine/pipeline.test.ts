/**
 * The code pipeline (engine/pipeline): exact outputs for every shape it forgives, the notices it
 * writes, the line alignment it keeps, and what it refuses. Also the inputs an attacker would
 * send a parser: 64 KB of nesting, code just over the limit, module syntax in disguise.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_BYTES, prepareCode, refuseModules, utf8Length } from '../../engine/pipeline/index.ts';

const ok = (source: string) => {
  const prepared = prepareCode(source);
  if (!prepared.ok) throw new Error(`refused: ${JSON.stringify(prepared.error)}`);
  return prepared;
};
const refused = (source: string) => {
  const prepared = prepareCode(source);
  if (prepared.ok) throw new Error(`ran: ${prepared.code}`);
  return prepared.error;
};

describe('prepareCode: shapes', () => {
  it.each([
    // [what the model sent, what runs, the notices]
    ['return 1', 'return 1', []],
    ['1 + 2', 'return 1 + 2', ['Returned the value of the final expression (line 1).']],
    [
      'const x = await github.getIssue({ id: 1 })\nx.title',
      'const x = await github.getIssue({ id: 1 })\nreturn x.title',
      ['Returned the value of the final expression (line 2).'],
    ],
    ['const x = a\n  + b', 'const x = a\n  + b', []],
    ['x\n++y', 'x\nreturn ++y', ['Returned the value of the final expression (line 2).']],
    ['const f = function () {}\n(1)', 'const f = function () {}\n(1)', []],
    ['if (x) { y }', 'if (x) { y }', []],
    [
      'for (const a of b) c(a)\nd',
      'for (const a of b) c(a)\nreturn d',
      ['Returned the value of the final expression (line 2).'],
    ],
    [
      'try { a() } catch { b() } finally { c() }\nresult',
      'try { a() } catch { b() } finally { c() }\nreturn result',
      ['Returned the value of the final expression (line 2).'],
    ],
    ['label: for (;;) break label', 'label: for (;;) break label', []],
    [
      'await slack.postMessage({ text: "hi" });',
      'return await slack.postMessage({ text: "hi" });',
      ['Returned the value of the final expression (line 1).'],
    ],
    [
      'async function main() {\n  return 3\n}',
      'async function main() {\n  return 3\n}\n;return main();',
      ["Called `main()`, the code's lone function, and returned its value."],
    ],
    ['function* gen() { yield 1 }', 'function* gen() { yield 1 }', []],
    [
      'async () => { return 4 }',
      'return (async () => { return 4 })()',
      ['Called the function expression on line 1 and returned its value.'],
    ],
    ['x => x', 'return (x => x)()', ['Called the function expression on line 1 and returned its value.']],
    [
      '(function () { return 1 })',
      'return ((function () { return 1 }))()',
      ['Called the function expression on line 1 and returned its value.'],
    ],
    [
      '(async () => 6)()',
      'return (async () => 6)()',
      ['Returned the value of the final expression (line 1).'],
    ],
    [
      'export default async function main() {\n  return 1\n}',
      'async function main() {\n  return 1\n}\n;return main();',
      ['Unwrapped `export default`.', 'Called `main()`, the default export, and returned its value.'],
    ],
    [
      'export default async () => { return 2 }',
      'return (async () => { return 2 })()',
      ['Unwrapped `export default`.', 'Called the function expression on line 1 and returned its value.'],
    ],
    [
      'export default function () { return 1 }',
      'return (function () { return 1 })()',
      ['Unwrapped `export default`.', 'Called the function expression on line 1 and returned its value.'],
    ],
    [
      'export default { a: 1 }',
      'return ({ a: 1 })',
      ['Unwrapped `export default`.', 'Returned the value of the final expression (line 1).'],
    ],
    [
      'export default\nasync function main() {}',
      '\nasync function main() {}\n;return main();',
      ['Unwrapped `export default`.', 'Called `main()`, the default export, and returned its value.'],
    ],
  ] as const)('%j runs as %j', (source, code, notices) => {
    expect(ok(source)).toEqual({ ok: true, code, notices });
  });

  it('keeps a comparison chain JavaScript, never a TypeScript generic call', () => {
    expect(ok('a < b > (c)').code).toBe('return a < b > (c)');
  });
});

describe('prepareCode: fences and types', () => {
  it('takes the body of a fenced block, keeping every line where it was', () => {
    expect(ok('```js\nconst a = 1;\na\n```')).toEqual({
      ok: true,
      code: '\nconst a = 1;\nreturn a\n',
      notices: [
        'Took the code from its ```js block.',
        'Returned the value of the final expression (line 3).',
      ],
    });
  });

  it.each(['js', 'ts', 'javascript', 'typescript', '', 'TS'])('accepts a ```%s fence', (tag) => {
    expect(ok(`\`\`\`${tag}\nreturn 1\n\`\`\``).code).toBe('\nreturn 1\n');
  });

  it('says how many lines after the fence it ignored, and reads CRLF fences', () => {
    expect(ok('```js\r\nreturn 1\r\n```\r\nThat returns one.\r\n').notices).toEqual([
      'Took the code from its ```js block; ignored 1 line(s) after the fence.',
    ]);
  });

  it('refuses a fence of another language', () => {
    expect(refused('```python\nprint(1)\n```')).toMatchObject({ code: 'unsupported', line: 1 });
  });

  it('leaves a fence further down the code alone', () => {
    expect(ok('return 1;\n/*\n```js\nx\n```\n*/').code).toBe('return 1;\n/*\n```js\nx\n```\n*/');
  });

  it('strips TypeScript with sucrase and keeps the lines', () => {
    expect(ok('```ts\ninterface A { x: number }\nconst y: A = { x: 1 }\ny.x as number\n```')).toEqual({
      ok: true,
      code: '\n\nconst y = { x: 1 }\nreturn y.x \n',
      notices: [
        'Took the code from its ```ts block.',
        'Stripped the TypeScript annotations.',
        'Returned the value of the final expression (line 4).',
      ],
    });
  });
});

describe('prepareCode: refusals', () => {
  it('names the line and column of a syntax error in the model code', () => {
    expect(refused('let x = 1;\n  foo bar')).toEqual({
      code: 'syntax_error',
      message: 'SyntaxError: Unexpected token, expected ";" (line 2, column 7)',
      line: 2,
      column: 7,
    });
  });

  it('counts lines from the top of the message, fence included', () => {
    expect(refused('```ts\nconst a = 1;\nconst b = (2;\n```')).toMatchObject({
      code: 'syntax_error',
      line: 3,
    });
  });

  it('refuses code over 64 KB before reading it, counting UTF-8 bytes', () => {
    const exact = `return 1;// ${'é'.repeat((DEFAULT_CODE_BYTES - 12) / 2)}`;
    expect(utf8Length(exact)).toBe(DEFAULT_CODE_BYTES);
    expect(prepareCode(exact).ok).toBe(true);
    expect(refused(`${exact}x`)).toMatchObject({ code: 'code_too_large' });
    expect(refused('x'.repeat(10 * 1024 * 1024))).toMatchObject({ code: 'code_too_large' });
    expect(prepareCode('return 1', { codeBytes: 4 })).toMatchObject({
      ok: false,
      error: { code: 'code_too_large' },
    });
  });

  it('refuses 64 KB of nesting as too deep to read, without throwing', () => {
    const deep = `return ${'('.repeat(30_000)}1${')'.repeat(30_000)}`;
    expect(refused(deep)).toMatchObject({
      code: 'syntax_error',
      message: expect.stringContaining('nested too deeply'),
    });
  });

  it.each([
    ['import x from "y"\nreturn x', 1, 1],
    ['const m = await import("cloudflare:workers")', 1, 17],
    ['return import.meta.url', 1, 8],
    ['const f = () => import(\n"node:fs")', 1, 17],
    ['export const a = 1', 1, 1],
  ])('refuses module syntax: %j', (source, line, column) => {
    expect(refused(source)).toMatchObject({ code: 'unsupported', line, column });
    expect(refuseModules(source)).toMatchObject({ code: 'unsupported', line, column });
  });

  it('lets the word import through where it is only text', () => {
    expect(ok('const text = "import x from y"; // import()\nreturn text').notices).toEqual([]);
    expect(refuseModules('return { import: 1 }.import')).toBeUndefined();
    expect(
      refuseModules('const o = { import() {} }; o.import(); o?.import; class A { import() {} }'),
    ).toBeUndefined();
  });
});

describe('utf8Length', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud800', 3],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
