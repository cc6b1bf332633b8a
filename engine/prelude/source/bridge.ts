/**
 * Prelude fragment: the guest half of the bridge. Each namespace is a deeply frozen global of
 * async functions; `hub.search`, `hub.describe` and `hub.read` (a large result's handle: a slice
 * of its text by UTF-8 byte offset and length, or the value at a path) ask the host; `ToolError` carries a tool's
 * failure (with an HTTP API's status and allowed response headers). A call with
 * `{ response: true }` resolves to `{ status, headers, body }` instead of the body alone. Calls
 * wait in order in a queue and at most `maxConcurrent` are handed to the host at once (the host
 * numbers them and enforces the same bound: nothing here is trusted). Arguments
 * leave as JSON text with an id; the answer comes back through `deliver(id, text)` as JSON text,
 * parsed here into the guest's own objects, so no host object ever enters the guest and the host
 * never holds a guest promise.
 *
 * An unknown tool is a TypeError naming the closest tools by edit distance over every address:
 * the prelude holds every address already, so the suggestion needs no round trip. `closest`
 * below mirrors engine/closest.ts (same distance, same cut-off), a test holds them equal.
 */
export const BRIDGE = String.raw`
let MAX_CONCURRENT = 1;
let RESULT_BYTES = 0;
let namespaces = Object.create(null);
const addresses = [];

function editDistance(a, b) {
  if (a === b) return 0;
  let previous = [];
  for (let j = 0; j <= b.length; j++) previous.push(j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

function closest(name, candidates, limit) {
  const needle = name.toLowerCase();
  const scored = [];
  candidates.forEach((candidate, order) => {
    const hay = candidate.toLowerCase();
    const distance = editDistance(needle, hay);
    const related = hay.includes(needle) || needle.includes(hay);
    if (distance <= Math.max(2, Math.ceil(hay.length / 2)) || related) {
      scored.push({ candidate, order, distance: related ? Math.min(distance, Math.abs(hay.length - needle.length)) : distance });
    }
  });
  scored.sort((x, y) => x.distance - y.distance || x.order - y.order);
  return scored.slice(0, limit).map((s) => s.candidate);
}

class ToolError extends Error {
  constructor(message, details) {
    super(safeString(message));
    const d = details && typeof details === 'object' ? details : {};
    this.code = typeof d.code === 'string' ? d.code : 'tool_error';
    this.address = typeof d.address === 'string' ? d.address : null;
    this.status = typeof d.status === 'number' ? d.status : undefined;
    this.headers = d.headers && typeof d.headers === 'object' && !isArray(d.headers) ? d.headers : undefined;
    this.hint = typeof d.hint === 'string' ? d.hint : undefined;
    this.retryable = d.retryable === true;
  }
}
defineProperty(ToolError.prototype, 'name', { value: 'ToolError', writable: false, enumerable: false, configurable: false });
freeze(ToolError.prototype);
freeze(ToolError);

const queue = [];
let queueHead = 0;
let inflight = 0;
/** Calls handed to the host, by the id their answer will carry. */
const awaiting = new Map();
let lastCallId = 0;

/** Queues a call or lookup; send(id) hands it to the host when a slot is free. */
function enqueue(address, send, whole) {
  return new NativePromise((resolve, reject) => {
    const job = { address, send, resolve, reject, whole: whole === true };
    if (!finished && inflight < MAX_CONCURRENT && queueHead === queue.length) dispatch(job);
    else {
      queue.push(job);
      pump();
    }
  });
}
const queued = () => queue.length - queueHead;

function pump() {
  while (!finished && inflight < MAX_CONCURRENT && queueHead < queue.length) {
    const job = queue[queueHead];
    queue[queueHead++] = undefined;
    if (queueHead > 1024 && queueHead * 2 > queue.length) { queue.splice(0, queueHead); queueHead = 0; }
    dispatch(job);
  }
}

function dispatch(job) {
  inflight++;
  const id = ++lastCallId;
  awaiting.set(id, job);
  try {
    job.send(id);
  } catch (error) {
    awaiting.delete(id);
    settle(job, undefined, error);
  }
}

/** The host's answer to call id (JSON text): the only way an answer enters the guest. */
function deliver(id, text) {
  const job = awaiting.get(id);
  if (job === undefined) return;
  awaiting.delete(id);
  settle(job, text);
}

function settle(job, text, failure) {
  inflight--;
  pump();
  if (finished) return reportWhenSettled();
  try {
    if (failure !== undefined) throw failure;
    const answer = parseJson(text);
    // The host ended the attempt: this await never returns, the host reports the outcome.
    if (answer.ended) return;
    if (answer.ok) job.resolve(job.whole ? wholeAnswer(answer) : answer.value);
    else job.reject(new ToolError(answer.error.message, { ...answer.error, address: job.address }));
  } catch (error) {
    job.reject(new ToolError('the hub could not answer ' + job.address, { code: 'bridge', address: job.address }));
  } finally {
    checkIdle();
  }
}

/** An answer with its HTTP status and allowed headers (an MCP tool's has no status and no headers). */
function wholeAnswer(answer) {
  const response = answer.response && typeof answer.response === 'object' ? answer.response : {};
  const headers = response.headers && typeof response.headers === 'object' && !isArray(response.headers) ? response.headers : {};
  return { status: typeof response.status === 'number' ? response.status : undefined, headers, body: answer.value };
}

function toJsonArgument(address, value, what) {
  let text;
  try { text = stringify(value); } catch (error) {
    throw new TypeError(address + ': ' + what + ' must be JSON data (' + describeError(error).message + ')');
  }
  if (text === undefined) throw new TypeError(address + ': ' + what + ' must be JSON data');
  if (text.length * 3 > RESULT_BYTES && (text.length > RESULT_BYTES || utf8Length(text) > RESULT_BYTES)) {
    throw new RangeError(address + ': ' + what + ' are over ' + RESULT_BYTES + ' bytes of JSON');
  }
  return text;
}

function callArguments(address, args, options) {
  if (args === undefined) args = {};
  if (args === null || typeof args !== 'object' || isArray(args)) {
    throw new TypeError(address + ' takes one object of arguments, e.g. ' + address + '({ … })');
  }
  let connection = null;
  let response = false;
  if (options !== undefined) {
    if (options === null || typeof options !== 'object') throw new TypeError(address + ': options must be an object, e.g. { connection: "work" }');
    if (options.connection !== undefined) {
      if (typeof options.connection !== 'string' || options.connection === '') {
        throw new TypeError(address + ': options.connection must be a connection name, e.g. "work"');
      }
      connection = options.connection;
    }
    if (options.response !== undefined) {
      if (typeof options.response !== 'boolean') throw new TypeError(address + ': options.response must be true or false');
      response = options.response;
    }
  }
  return { text: toJsonArgument(address, args, 'the arguments'), connection, response };
}

/** A tool as the guest sees it: an async function (a plain one returning a promise: fewer ticks). */
function toolFunction(namespace, tool) {
  const address = namespace + '.' + tool;
  const holder = {
    [tool](args, options) {
      let call;
      try { call = callArguments(address, args, options); } catch (error) { return NativePromise.reject(error); }
      return enqueue(address, (id) => host.call(id, address, call.text, call.connection), call.response);
    },
  };
  return freeze(holder[tool]);
}

const PASSTHROUGH = new Set(['then', 'toJSON', 'constructor', 'valueOf', 'toString', 'toLocaleString',
  'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', '__proto__', '__defineGetter__',
  '__defineSetter__', '__lookupGetter__', '__lookupSetter__', 'inspect', 'asymmetricMatch', 'nodeType', '$$typeof']);

function unknownTool(namespace, tool) {
  const address = namespace + '.' + tool;
  const near = closest(address, addresses, 3);
  const tools = namespaces[namespace];
  const advice = near.length > 0
    ? ' Did you mean ' + near.join(', ') + '?'
    : tools.length > 0 ? ' ' + namespace + ' has: ' + tools.slice(0, 8).join(', ') + (tools.length > 8 ? ', …' : '') + '.' : '';
  return new TypeError(address + ' is not a tool.' + advice + ' Find tools with hub.search("what you want to do").');
}

/**
 * A namespace: a frozen object whose own properties are its tools (plain lookups, no trap on
 * the hot path), over a frozen Proxy that answers every other name: undefined for the names
 * every object is asked about (then, toJSON, constructor…), a TypeError for anything else.
 */
function namespaceObject(namespace) {
  const missing = new Proxy(freeze(Object.create(null)), {
    get(target, key) {
      if (typeof key === 'symbol' || PASSTHROUGH.has(key)) return undefined;
      throw unknownTool(namespace, key);
    },
  });
  const object = Object.create(missing);
  for (const tool of namespaces[namespace]) {
    defineProperty(object, tool, { value: toolFunction(namespace, tool), enumerable: true, writable: false, configurable: false });
  }
  return freeze(object);
}

function lookup(address, request) {
  const text = toJsonArgument(address, request, 'the request');
  return enqueue(address, (id) => host.lookup(id, text));
}

const hub = freeze({
  search: freeze(async function search(query, options) {
    if (typeof query !== 'string') throw new TypeError('hub.search takes a query string, e.g. hub.search("create an issue")');
    const request = { kind: 'search', query };
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('hub.search: options must be an object, e.g. { namespace: "github", limit: 5 }');
      if (options.namespace !== undefined) request.namespace = String(options.namespace);
      if (options.limit !== undefined) request.limit = Number(options.limit);
    }
    return lookup('hub.search', request);
  }),
  describe: freeze(async function describe(target) {
    const targets = isArray(target) ? target.slice() : [target];
    if (targets.length === 0 || targets.length > 10 || !targets.every((t) => typeof t === 'string')) {
      throw new TypeError('hub.describe takes an address, a namespace or a type name (or up to 10 of them), e.g. hub.describe("github.createIssue")');
    }
    return lookup('hub.describe', { kind: 'describe', targets });
  }),
  read: freeze(async function read(handle, options) {
    const id = handle !== null && typeof handle === 'object' ? handle.handle : handle;
    if (typeof id !== 'string' || id === '') {
      throw new TypeError('hub.read takes a handle a tool returned, e.g. hub.read(result, { offset: 0, length: 65536 }) or hub.read(result, { path: "items[0].title" })');
    }
    const request = { kind: 'read', handle: id };
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new TypeError('hub.read: options must be { offset, length } or { path }');
      if (options.path !== undefined) {
        if (typeof options.path !== 'string' || options.offset !== undefined || options.length !== undefined) {
          throw new TypeError('hub.read: read either { path: "items[0].title" } or { offset, length }, not both');
        }
        request.path = options.path;
      }
      for (const key of ['offset', 'length']) {
        if (options[key] === undefined) continue;
        if (!Number.isSafeInteger(options[key]) || options[key] < 0 || (key === 'length' && options[key] === 0)) {
          throw new TypeError('hub.read: ' + key + ' must be a whole number of bytes' + (key === 'length' ? ' above 0' : ''));
        }
        request[key] = options[key];
      }
    }
    return lookup('hub.read', request);
  }),
});
`;
