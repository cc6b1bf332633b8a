/**
 * The prelude: namespaces, hub lookups, ToolError, console, determinism, timers and the small
 * web APIs, as the model's code sees them.
 */
import { expect } from 'vitest';
import { closest } from '../../../engine/closest.ts';
import { type Check, NAMESPACES, RecordingHost, resultOf } from './fixtures.ts';

const ADDRESSES = Object.entries(NAMESPACES).flatMap(([ns, tools]) => tools.map((tool) => `${ns}.${tool}`));

export function preludeChecks(check: Check): void {
  check('a tool call reaches the host with its address, arguments and connection', async (run) => {
    const host = new RecordingHost();
    const outcome = await run(
      'await github.createIssue({ title: "x", labels: ["bug"] });\nreturn await slack.postMessage({ text: "hi" }, { connection: "work" });',
      { host },
    );
    expect(resultOf(outcome)).toEqual({ address: 'slack.postMessage', args: { text: 'hi' }, seq: 1 });
    expect(host.calls).toEqual([
      { seq: 0, address: 'github.createIssue', args: { title: 'x', labels: ['bug'] } },
      { seq: 1, address: 'slack.postMessage', args: { text: 'hi' }, connection: 'work' },
    ]);
    expect(outcome.calls).toBe(2);
  });

  check("an answer enters the guest as the guest's own data", async (run) => {
    const host = new RecordingHost(() => ({
      kind: 'value',
      value: { items: [{ n: 1 }, { n: 2 }], next: null },
    }));
    const outcome = await run(
      'const page = await github.searchIssues({});\npage.items.push({ n: 3 });\nreturn [page.items instanceof Array, Object.getPrototypeOf(page) === Object.prototype, page.items.length, Object.isFrozen(page)];',
      { host },
    );
    expect(resultOf(outcome)).toEqual([true, true, 3, false]);
  });

  check('a tool failure is a ToolError with code, address, status, hint and retryable', async (run) => {
    const host = new RecordingHost(() => ({
      kind: 'error',
      error: {
        code: 'upstream',
        message: 'rate limited',
        status: 429,
        hint: 'wait a minute',
        retryable: true,
      },
    }));
    const outcome = await run(
      'try { await github.createIssue({}); } catch (e) {\n  return [e instanceof ToolError, e instanceof Error, e.name, e.code, e.address, e.status, e.hint, e.retryable, e.message];\n}',
      { host },
    );
    expect(resultOf(outcome)).toEqual([
      true,
      true,
      'ToolError',
      'upstream',
      'github.createIssue',
      429,
      'wait a minute',
      true,
      'rate limited',
    ]);
  });

  check('an HTTP answer: the body, or with { response: true } its status, headers and body', async (run) => {
    const host = new RecordingHost((call) =>
      call.address === 'github.getIssue'
        ? { kind: 'value', value: { n: 1 }, response: { status: 200, headers: { link: '<next>' } } }
        : call.address === 'github.createIssue'
          ? {
              kind: 'error',
              error: {
                code: 'upstream_error',
                message: 'HTTP 429',
                status: 429,
                headers: { 'retry-after': '30' },
                retryable: true,
              },
            }
          : { kind: 'value', value: 'plain' },
    );
    const outcome = await run(
      [
        'const body = await github.getIssue({});',
        'const whole = await github.getIssue({}, { response: true });',
        'const mcp = await github.searchIssues({}, { response: true });',
        'let error; try { await github.createIssue({}); } catch (e) { error = [e.status, e.headers]; }',
        'let wrong; try { await github.getIssue({}, { response: "yes" }); } catch (e) { wrong = [e.name, e.message]; }',
        'return { body, whole, mcp, hasStatus: "status" in mcp && mcp.status !== undefined, error, wrong };',
      ].join('\n'),
      { host },
    );
    expect(resultOf(outcome)).toEqual({
      body: { n: 1 },
      whole: { status: 200, headers: { link: '<next>' }, body: { n: 1 } },
      mcp: { headers: {}, body: 'plain' },
      hasStatus: false,
      error: [429, { 'retry-after': '30' }],
      wrong: ['TypeError', 'github.getIssue: options.response must be true or false'],
    });
    expect(host.calls.map((call) => call.address)).toEqual([
      'github.getIssue',
      'github.getIssue',
      'github.searchIssues',
      'github.createIssue',
    ]);
  });

  check('an uncaught ToolError fails the attempt with its code and hint', async (run) => {
    const host = new RecordingHost(() => ({
      kind: 'error',
      error: { code: 'denied', message: 'denied by policy', hint: 'ask', retryable: false },
    }));
    const outcome = await run('await github.createIssue({});', { host });
    expect(outcome.error).toMatchObject({ code: 'denied', name: 'ToolError', hint: 'ask' });
    expect(outcome.error?.message).toMatch(/^ToolError: github\.createIssue: denied by policy/);
  });

  check('an unknown tool is a TypeError naming the closest tools', async (run) => {
    const outcome = await run(
      'try { github.creatIssue({}); } catch (e) { return [e instanceof TypeError, e.message]; }',
    );
    const [isTypeError, message] = resultOf(outcome) as [boolean, string];
    expect(isTypeError).toBe(true);
    expect(message).toContain('github.creatIssue is not a tool.');
    expect(message).toContain(`Did you mean ${closest('github.creatIssue', ADDRESSES).join(', ')}?`);
  });

  check("the guest's suggestions are engine/closest.ts's", async (run) => {
    const names = [
      'github.searchIssue',
      'github.issue',
      'slack.post',
      'github.zzzzzzzzzzzz',
      'github.GETISSUE',
    ];
    const outcome = await run(
      `return ${JSON.stringify(names)}.map((address) => {\n  try { github[address.split('.')[1]]; return ''; } catch (e) { return e.message; }\n});`,
    );
    const messages = resultOf(outcome) as string[];
    names.forEach((name, i) => {
      const near = closest(`github.${name.split('.')[1]}`, ADDRESSES);
      if (near.length > 0) expect(messages[i]).toContain(`Did you mean ${near.join(', ')}?`);
      else expect(messages[i]).not.toContain('Did you mean');
    });
  });

  check('namespaces are deeply frozen', async (run) => {
    const outcome = await run(`
const attempts = [
  () => { github.createIssue = () => 1; },
  () => { github.extra = 1; },
  () => { delete github.createIssue; },
  () => { github.createIssue.hacked = 1; },
  () => { Object.setPrototypeOf(github, {}); },
  () => { Object.defineProperty(github, 'createIssue', { value: 1 }); },
  () => { globalThis.github = {}; },
  () => { hub.search = () => 'x'; },
  () => { console.log = () => {}; },
];
const failed = attempts.map((f) => { try { f(); return false; } catch (e) { return e instanceof TypeError; } });
return [failed, Object.isFrozen(github), Object.isFrozen(github.createIssue), Object.isFrozen(hub), Object.keys(github)];`);
    expect(resultOf(outcome)).toEqual([
      Array(9).fill(true),
      true,
      true,
      true,
      ['createIssue', 'searchIssues', 'getIssue'],
    ]);
  });

  check('arguments must be one object of JSON data', async (run) => {
    const host = new RecordingHost();
    const outcome = await run(
      `const cyclic = {};
cyclic.self = cyclic;
const bad = ['text', [1], null, cyclic, { big: 10n }];
const errors = [];
for (const args of bad) { try { await github.createIssue(args); } catch (e) { errors.push(e.name); } }
try { await github.createIssue({}, { connection: 5 }); } catch (e) { errors.push(e.name); }
return errors;`,
      { host },
    );
    expect(resultOf(outcome)).toEqual([
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
    ]);
    expect(host.calls).toEqual([]);
  });

  check('hub.search and hub.describe ask the host', async (run) => {
    const host = new RecordingHost();
    const outcome = await run(
      'return [await hub.search("open bugs", { namespace: "github", limit: 3 }), await hub.describe(["github.createIssue", "slack"])];',
      { host },
    );
    expect(host.lookups).toEqual([
      { kind: 'search', query: 'open bugs', namespace: 'github', limit: 3 },
      { kind: 'describe', targets: ['github.createIssue', 'slack'] },
    ]);
    expect(resultOf(outcome)).toEqual([
      expect.stringMatching(/^search: /),
      expect.stringMatching(/^describe: /),
    ]);
  });

  check('console is captured, one line per call, levels prefixed', async (run) => {
    const outcome = await run(
      'console.log("plain", 1, { a: [1, "two"] }, null, undefined);\nconsole.info("i");\nconsole.warn("w");\nconsole.error(new TypeError("bad"));\nconsole.debug("d");\nreturn 0;',
    );
    expect(outcome.logs).toEqual([
      'plain 1 {"a": [1, "two"]} null undefined',
      'info: i',
      'warn: w',
      'error: TypeError: bad',
      'debug: d',
    ]);
    expect(outcome.logsTruncated).toBe(false);
  });

  check('Date runs on the logical clock, and timers move it', async (run) => {
    const outcome = await run(`
const start = [Date.now(), new Date().getTime(), Date(), performance.now()];
await new Promise((resolve) => setTimeout(resolve, 50));
const later = Date.now();
const explicit = new Date(0).toISOString();
return [start[0], start[1], start[2] === new Date(${1_800_000_000_000}).toString(), start[3], later, explicit, new Date().constructor === Date];`);
    expect(resultOf(outcome)).toEqual([
      1_800_000_000_000,
      1_800_000_000_000,
      true,
      0,
      1_800_000_000_050,
      '1970-01-01T00:00:00.000Z',
      true,
    ]);
  });

  check('Math.random and crypto draw from the seed, the same in every driver', async (run) => {
    const code =
      'const b = crypto.getRandomValues(new Uint8Array(8));\nreturn [Math.random(), Math.random(), crypto.randomUUID(), Array.from(b)];';
    const first = resultOf(await run(code));
    expect(first).toEqual([
      0.9547616553660943,
      0.631095138318273,
      '30dbb604-faa4-4228-b0cf-362936176915',
      [71, 30, 90, 231, 218, 107, 13, 128],
    ]);
    expect(resultOf(await run(code, { seed: 'seed-2' }))).not.toEqual(first);
  });

  check('setTimeout and clearTimeout', async (run) => {
    const outcome = await run(`
const order = [];
const cancelled = setTimeout(() => order.push('cancelled'), 10);
clearTimeout(cancelled);
setTimeout((a, b) => order.push(a + b), 20, 'x', 'y');
setTimeout(() => order.push('first'), 5);
await new Promise((resolve) => setTimeout(resolve, 40));
let refused = '';
try { setTimeout('order.push(1)', 1); } catch (e) { refused = e.name; }
return [order, refused];`);
    expect(resultOf(outcome)).toEqual([['first', 'xy'], 'TypeError']);
  });

  check('structuredClone, TextEncoder, TextDecoder, atob and btoa', async (run) => {
    const outcome = await run(`
const source = { when: new Date(5), list: [1, { deep: true }], map: new Map([['k', new Set([1])]]) };
source.self = source;
const copy = structuredClone(source);
let cloneError = '';
try { structuredClone({ f() {} }); } catch (e) { cloneError = e.name; }
const bytes = new TextEncoder().encode('héllo €');
return [copy !== source, copy.self === copy, copy.when.getTime(), copy.list[1].deep, copy.map.get('k').has(1), cloneError,
  Array.from(bytes), new TextDecoder().decode(bytes), btoa('hi there'), atob('aGkgdGhlcmU=')];`);
    expect(resultOf(outcome)).toEqual([
      true, true, 5, true, true, 'DataCloneError',
      [104, 195, 169, 108, 108, 111, 32, 226, 130, 172], 'héllo €', 'aGkgdGhlcmU=', 'hi there',
    ]); // biome-ignore format: one value per check
  });

  check('a returned value that is not JSON fails plainly, and undefined is no result', async (run) => {
    expect((await run('return 10n;')).error?.code).toBe('result_not_json');
    expect((await run('return () => 1;')).error?.code).toBe('result_not_json');
    const none = await run('const a = 1;');
    expect(none.status).toBe('completed');
    expect(none.result).toBeUndefined();
  });
}
