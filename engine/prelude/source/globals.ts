/**
 * Prelude fragment: what the global scope holds when the model's code starts. Default deny:
 * every global (on `globalThis` and up its prototype chain, short of Object.prototype) that is
 * not on the allowlist is deleted, so a runtime's extras (`fetch`, `process`, `Buffer`,
 * `WebAssembly`, `caches`, `scheduler`, `navigator`, `Intl`, `WeakRef`…) are gone in both drivers
 * alike. Then the prelude's own globals and the namespaces are defined non-writable.
 *
 * Every road to the Function constructor is closed: the global goes, and the `constructor` of
 * the four function prototypes (plain, async, generator, async generator), which is how
 * `(function(){}).constructor`, `(async () => {}).constructor` and a tool function's
 * `.constructor` reach it, becomes a non-configurable stub that throws a TypeError. `eval` goes
 * with the rest. A global that must go and cannot is a setup failure: the attempt does not run.
 * The namespaces are added later, by `configure`, beside these.
 */
export const GLOBALS = String.raw`
const ALLOWED = new Set([
  'Object', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Math', 'JSON', 'Reflect',
  'Proxy', 'Promise', 'RegExp', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Iterator', 'ArrayBuffer', 'DataView',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'BigInt64Array', 'BigUint64Array', 'Float16Array', 'Float32Array', 'Float64Array',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError',
  'URIError', 'InternalError', 'SuppressedError', 'DisposableStack', 'AsyncDisposableStack',
  'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'decodeURI', 'decodeURIComponent', 'encodeURI',
  'encodeURIComponent', 'escape', 'unescape', 'Infinity', 'NaN', 'undefined', 'globalThis',
]);
/** Must be gone whatever the runtime: a survivor here stops the attempt before it starts. */
const MUST_GO = ['eval', 'Function', 'fetch', 'require', 'process', 'Buffer', 'URL', 'URLSearchParams',
  'WebAssembly', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'connect', 'caches',
  'scheduler', 'navigator', 'setInterval', 'clearInterval', 'setImmediate', 'WeakRef', 'FinalizationRegistry',
  'SharedArrayBuffer', 'Atomics', 'Intl', 'Request', 'Response', 'Headers'];

const stubs = [
  [function () {}, 'Function'],
  [async function () {}, 'AsyncFunction'],
  [function* () {}, 'GeneratorFunction'],
  [async function* () {}, 'AsyncGeneratorFunction'],
];
for (const [sample, kind] of stubs) {
  const stub = function () {
    throw new TypeError('the ' + kind + ' constructor is not available in the sandbox: code cannot be made from strings');
  };
  defineProperty(stub, 'name', { value: kind });
  defineProperty(getPrototypeOf(sample), 'constructor', { value: stub, writable: false, enumerable: false, configurable: false });
}

const ours = {
  console, hub, ToolError, crypto, performance, setTimeout, clearTimeout, Date: LogicalDate, ...web,
};

for (let owner = G; owner !== null && owner !== Object.prototype; owner = getPrototypeOf(owner)) {
  for (const key of ownKeys(owner)) {
    if (typeof key === 'symbol' || ALLOWED.has(key)) continue;
    try { delete owner[key]; } catch (error) { /* checked below */ }
  }
}
for (const name of MUST_GO) {
  if (name in G) {
    try { defineProperty(G, name, { value: undefined, writable: false, enumerable: false, configurable: false }); } catch (error) { /* checked below */ }
    if (G[name] !== undefined) throw new Error('the sandbox could not remove ' + name);
  }
}

for (const key of Object.keys(ours)) {
  defineProperty(G, key, { value: deepFreeze(ours[key]), writable: false, enumerable: false, configurable: false });
}
`;
