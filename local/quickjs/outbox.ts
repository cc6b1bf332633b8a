/**
 * The QuickJS driver's outbox: how the guest's calls and lookups leave QuickJS. A host function
 * costs quickjs-emscripten several microseconds per crossing (handles for `this` and every
 * argument, a generator, a scope), more than the guest's own work for a call, so `call` and
 * `lookup` are guest functions that append to a text inside the guest; the worker takes the
 * whole text once per turn (`take()`) and posts the turn's requests as one message.
 *
 * - Only the driver holds `take`; the prelude gets `primitives` as its `host` argument, so the
 *   model's code can name neither. The shim uses no global the model could replace.
 * - `log`, `setTimer`, `clearTimer` and `done` stay host functions: logs and the report must
 *   reach the host even from a turn the compute or memory limit cuts short.
 * - A call still in the outbox when a limit ends its turn never left the guest: it never
 *   started, and the host never hears of it.
 * - The text is records of length-prefixed fields (fields.ts), no JSON: QuickJS's
 *   JSON.stringify costs a microsecond or two even for a tiny array. A record is a kind (`c` a
 *   call, `d` a call with a connection, `l` a lookup) and its fields; the worker posts the
 *   text on as it is when every record in it was accepted. Arguments and requests
 *   are the prelude's JSON text (lone surrogates escaped), addresses come from the host's own
 *   config; a connection name is the model's string, so it is JSON-quoted to survive the
 *   UTF-8 crossing intact.
 * - Nothing here is trusted: `readRequests` keeps well-formed records up to the first
 *   malformed one; the worker checks ids against the attempt's, the HostBridge everything else.
 */
import { FieldReader, field } from './fields.ts';
import type { GuestRequest } from './protocol.ts';

/** A function expression: `(OUTBOX_SOURCE)(native)` returns `{ primitives, take }`. */
export const OUTBOX_SOURCE = `(function outbox(native) {
  'use strict';
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const text = (value) => (typeof value === 'string' ? value : '');
  const id = (value) => '' + (typeof value === 'number' ? value : -1);
  const field = (value) => value.length + ':' + value;
  let out = '';
  const primitives = freeze({
    call: freeze(function call(key, address, args, connection) {
      const head = field(id(key)) + field(text(address)) + field(text(args));
      out += typeof connection === 'string' ? 'd' + head + field(stringify(connection)) : 'c' + head;
    }),
    lookup: freeze(function lookup(key, request) {
      out += 'l' + field(id(key)) + field(text(request));
    }),
    log: native.log,
    setTimer: native.setTimer,
    clearTimer: native.clearTimer,
    done: native.done,
  });
  function take() {
    const taken = out;
    out = '';
    return taken;
  }
  return freeze({ primitives, take });
})`;

/** One turn's requests, as `take()` wrote them; `complete` if every record was well-formed. */
export interface OutboxReading {
  requests: GuestRequest[];
  complete: boolean;
}

/** The requests in one `take()` text, in order, up to the first malformed record. */
export function readRequests(text: string): OutboxReading {
  const requests: GuestRequest[] = [];
  const reader = new FieldReader(text);
  while (!reader.done) {
    const kind = reader.char();
    const id = reader.integer();
    if (id === undefined) return { requests, complete: false };
    if (kind === 'l') {
      const request = reader.field();
      if (request === undefined) return { requests, complete: false };
      requests.push({ kind: 'lookup', id, request });
      continue;
    }
    if (kind !== 'c' && kind !== 'd') return { requests, complete: false };
    const address = reader.field();
    const args = reader.field();
    if (address === undefined || args === undefined) return { requests, complete: false };
    let connection: string | null = null;
    if (kind === 'd') {
      const quoted = reader.field();
      if (quoted === undefined) return { requests, complete: false };
      connection = parseQuoted(quoted);
    }
    requests.push({ kind: 'call', id, address, args, connection });
  }
  return { requests, complete: true };
}

/** Requests in the outbox's own form (what `take()` would have written for them). */
export function encodeRequests(requests: readonly GuestRequest[]): string {
  let out = '';
  for (const request of requests) {
    if (request.kind === 'lookup') out += `l${field(String(request.id))}${field(request.request)}`;
    else {
      const head = field(String(request.id)) + field(request.address) + field(request.args);
      out +=
        request.connection === null ? `c${head}` : `d${head}${field(JSON.stringify(request.connection))}`;
    }
  }
  return out;
}

/** A JSON-quoted string, or an empty name (which the HostBridge refuses) if it is not one. */
function parseQuoted(quoted: string): string {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}
