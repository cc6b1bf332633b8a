/**
 * Shapes, end to end: what the pipeline forgives runs, returns what it should, and says so in
 * `notices`; syntax and runtime errors name the line and column in the model's own code.
 */
import { expect } from 'vitest';
import { type Check, resultOf } from './fixtures.ts';

export function shapeChecks(check: Check): void {
  check('a plain body returns its value', async (run) => {
    const outcome = await run('const a = 20;\nreturn a + 22;');
    expect(resultOf(outcome)).toBe(42);
    expect(outcome.notices).toEqual([]);
  });

  check('a ```ts fenced block runs with its types stripped', async (run) => {
    const outcome = await run(
      '```ts\ninterface Pair { a: number; b: number }\nconst pair: Pair = { a: 1, b: 2 };\nreturn pair.a + pair.b as number;\n```',
    );
    expect(resultOf(outcome)).toBe(3);
    expect(outcome.notices).toEqual([
      'Took the code from its ```ts block.',
      'Stripped the TypeScript annotations.',
    ]);
  });

  check('export default of an async function is unwrapped and called', async (run) => {
    const outcome = await run('export default async function main(): Promise<string> {\n  return "ran";\n}');
    expect(resultOf(outcome)).toBe('ran');
    expect(outcome.notices).toContain('Unwrapped `export default`.');
  });

  check('a lone function declaration is called', async (run) => {
    const outcome = await run(
      'async function main() {\n  const issue = await github.getIssue({ id: 7 });\n  return issue.args.id;\n}',
    );
    expect(resultOf(outcome)).toBe(7);
    expect(outcome.notices).toEqual(["Called `main()`, the code's lone function, and returned its value."]);
  });

  check('a lone function expression is called, arrow or not, async or not', async (run) => {
    for (const code of [
      'async () => { return 1 }',
      '() => 1',
      '(function () { return 1 })',
      '(async function () { return 1 })',
    ]) {
      const outcome = await run(code);
      expect(resultOf(outcome), code).toBe(1);
      expect(outcome.notices, code).toEqual([
        'Called the function expression on line 1 and returned its value.',
      ]);
    }
  });

  check('a final expression statement is returned', async (run) => {
    const outcome = await run(
      'const found = await github.searchIssues({ q: "bug" })\nfound.args.q.toUpperCase()',
    );
    expect(resultOf(outcome)).toBe('BUG');
    expect(outcome.notices).toEqual(['Returned the value of the final expression (line 2).']);
  });

  check('a syntax error names the line and column in the model code', async (run) => {
    const outcome = await run('```js\nconst a = 1;\nconst b = (2;\n```');
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatchObject({ code: 'syntax_error', line: 3 });
    expect(outcome.error?.message).toMatch(/line 3, column \d+/);
  });

  check('a syntax error only the engine sees still names its line', async (run) => {
    // sucrase reads this; redeclaring a lexical binding is an early error of the engine.
    const outcome = await run('let total = 1;\nlet total = 2;\nreturn total;');
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatchObject({ code: 'syntax_error', name: 'SyntaxError', line: 2 });
  });

  check('an uncaught error names its class, line and column', async (run) => {
    const outcome = await run('const issue = null;\nreturn issue.title;');
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatchObject({ code: 'uncaught', name: 'TypeError', line: 2 });
    expect(outcome.error?.column).toBeGreaterThan(0);
  });

  check('code over 64 KB is refused before it runs', async (run) => {
    const outcome = await run(`return 1;\n// ${'x'.repeat(64 * 1024)}`);
    expect(outcome.error?.code).toBe('code_too_large');
  });

  check('the code runs in strict mode', async (run) => {
    const outcome = await run('undeclared = 1;');
    expect(outcome.error).toMatchObject({ code: 'uncaught', name: 'ReferenceError' });
  });
}
