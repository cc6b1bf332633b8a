/**
 * The roads out, tried the way an attacker would: every absent global, every road to the
 * Function constructor, module loading with and without the pipeline, the host's primitives,
 * stack-trace introspection, and state left behind for the next attempt.
 */
import { expect } from 'vitest';
import { type Check, RecordingHost, resultOf } from './fixtures.ts';

const ABSENT = [
  'fetch', 'require', 'process', 'Buffer', 'eval', 'Function', 'URL', 'URLSearchParams', 'WebAssembly',
  'XMLHttpRequest', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'setInterval',
  'clearInterval', 'setImmediate', 'caches', 'navigator', 'scheduler', 'Intl', 'WeakRef',
  'FinalizationRegistry', 'SharedArrayBuffer', 'Atomics', 'importScripts', 'connect', 'self', 'global',
  'Cloudflare', 'module', 'exports', 'host', 'configure', 'deliver', 'fire', 'env',
]; // biome-ignore format: a word list reads better packed

/** Every global the model's code sees, in both drivers (with the suite's two namespaces). */
const GLOBALS = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'Error', 'EvalError', 'Float16Array', 'Float32Array', 'Float64Array', 'Infinity', 'Int16Array',
  'Int32Array', 'Int8Array', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise', 'Proxy',
  'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError', 'TextDecoder',
  'TextEncoder', 'ToolError', 'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array',
  'Uint8ClampedArray', 'WeakMap', 'WeakSet', 'atob', 'btoa', 'clearTimeout', 'console', 'crypto', 'decodeURI',
  'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'github', 'globalThis', 'hub', 'isFinite',
  'isNaN', 'parseFloat', 'parseInt', 'performance', 'queueMicrotask', 'setTimeout', 'slack', 'structuredClone',
  'undefined', 'unescape',
]; // biome-ignore format: a word list reads better packed
/** Standard globals one engine has and the other not yet; harmless either way. */
const ENGINE_EXTRAS = ['InternalError', 'SuppressedError', 'DisposableStack', 'AsyncDisposableStack'];

/** Expressions that reach a function's `constructor`, each a road to Function if left open. */
const ROADS = [
  '(function () {}).constructor', '(async function () {}).constructor', '(function* () {}).constructor',
  '(async function* () {}).constructor', '(() => {}).constructor', '(async () => {}).constructor',
  'github.createIssue.constructor', 'hub.search.constructor', 'console.log.constructor',
  'setTimeout.constructor', 'ToolError.constructor', 'Date.constructor', '[].map.constructor',
  'Object.getPrototypeOf(Object).constructor', 'Object.getPrototypeOf(async function () {}).constructor',
  'Reflect.getPrototypeOf(github.createIssue).constructor', 'class {}.constructor',
  '(() => {}).bind(null).constructor', 'Object.getOwnPropertyDescriptor(Object.getPrototypeOf(() => {}), "constructor").value',
]; // biome-ignore format: one road per line would be longer than the check

export function escapeChecks(check: Check): void {
  check('every absent global is absent', async (run) => {
    const outcome = await run(
      `return ${JSON.stringify(ABSENT)}.filter((name) => typeof globalThis[name] !== 'undefined' || name in globalThis);`,
    );
    expect(resultOf(outcome)).toEqual([]);
  });

  check('the global scope holds exactly the allowed names', async (run) => {
    const outcome = await run(`
const names = [];
for (let o = globalThis; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
  for (const key of Object.getOwnPropertyNames(o)) if (o === globalThis || key !== 'constructor') names.push(key);
}
return names.filter((name) => !${JSON.stringify(ENGINE_EXTRAS)}.includes(name)).sort();`);
    expect(resultOf(outcome)).toEqual([...GLOBALS].sort());
  });

  check('every road to the Function constructor throws and evaluates nothing', async (run) => {
    const outcome = await run(`
const results = [];
for (const road of [${ROADS.map((road) => `() => ${road}`).join(', ')}]) {
  try {
    const made = road()('globalThis.pwned = 1; return 1');
    results.push(typeof made === 'function' ? 'made a function' : 'returned ' + typeof made);
  } catch (e) { results.push(e.name); }
  try { new (road())('return 1'); results.push('constructed'); } catch (e) { results.push(e.name); }
}
return [results, typeof globalThis.pwned];`);
    expect(resultOf(outcome)).toEqual([Array(ROADS.length * 2).fill('TypeError'), 'undefined']);
  });

  check('the Function stubs cannot be replaced', async (run) => {
    const outcome = await run(`
const proto = Object.getPrototypeOf(function () {});
const attempts = [
  () => Object.defineProperty(proto, 'constructor', { value: 1 }),
  () => { proto.constructor = 1; },
  () => delete proto.constructor,
];
return attempts.map((f) => { try { return f() === false ? 'refused' : 'changed'; } catch (e) { return e.name; } });`);
    expect(resultOf(outcome)).toEqual(['TypeError', 'TypeError', 'TypeError']);
  });

  check('import() is refused by the pipeline', async (run) => {
    const outcome = await run(
      'const workers = await import("cloudflare:workers");\nreturn Object.keys(workers);',
    );
    expect(outcome.error).toMatchObject({ code: 'unsupported', line: 1 });
  });

  check('import() and import.meta load nothing even without the pipeline', async (run) => {
    for (const code of [
      'try { const m = await import("cloudflare:workers"); return Object.keys(m); } catch (e) { return "refused"; }',
      'try { const m = await import("./guest.js"); return Object.keys(m); } catch (e) { return "refused"; }',
      'return typeof import.meta;',
    ]) {
      const outcome = await run(code, { raw: true });
      if (outcome.status === 'completed') expect(outcome.result, code).toBe('refused');
      else expect(outcome.error?.code, code).toMatch(/^(unsupported|syntax_error)$/);
    }
  });

  check('the code cannot reach the host primitives through callers or stack frames', async (run) => {
    const outcome = await run(`
const seen = [];
const probe = { toJSON() {
  try { seen.push(typeof arguments.callee); } catch (e) { seen.push(e.name); }
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, frames) => frames.map((f) => [typeof f.getFunction?.(), typeof f.getThis?.()]);
  try { const frames = new Error('x').stack; seen.push(Array.isArray(frames) ? frames.flat().filter((t) => t !== 'undefined').length : 0); }
  finally { Error.prepareStackTrace = prepare; }
  return {};
} };
await github.createIssue(probe);
return seen;`);
    expect(resultOf(outcome)).toEqual(['TypeError', 0]);
  });

  check('an attempt leaves nothing behind for the next', async (run) => {
    await run(
      'globalThis.leak = "secret";\nObject.prototype.polluted = 1;\nArray.prototype.map = () => "hijacked";\nMath.max = () => 0;',
    );
    const outcome = await run(
      'return [typeof leak, typeof ({}).polluted, [1].map((x) => x + 1), Math.max(1, 2)];',
    );
    expect(resultOf(outcome)).toEqual(['undefined', 'undefined', [2], 2]);
  });

  check('a namespace that would shadow a sandbox global is refused', async (run) => {
    const outcome = await run('return 1;', { namespaces: { console: ['log'] } });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('sandbox_failed');
  });

  check('an unknown tool never reaches the host', async (run) => {
    const host = new RecordingHost();
    const outcome = await run('try { await github.deleteRepo({}); } catch (e) { return e.name; }', { host });
    expect(resultOf(outcome)).toBe('TypeError');
    expect(host.calls).toEqual([]);
  });
}
