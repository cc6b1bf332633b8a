/**
 * The MCP surface over stdio (`capabilities hub serve --stdio`), the transport harness configs
 * launch: one process per harness session, all sharing the hub's store. stdout carries the
 * protocol and nothing else; everything a person should read goes to stderr.
 *
 * The SDK's `serveStdio` owns the era decision: a 2026-07-28 client's first request pins a
 * modern instance, a 2025 `initialize` pins a legacy one, both from the same factory. The
 * session ends when the client closes stdin (the stdio binding's signal to exit) or on `close()`.
 * Because a 2025 session saw `initialize`, a client that declared elicitation there gets the
 * client prompt as real `elicitation/create` requests on this connection (the SDK's legacy
 * shim re-enters `execute` with the answers; engine/surface/approvals.ts).
 *
 * `firstAnswered` settles once the session has answered its first request other than
 * `initialize` (a harness's `tools/list`, usually): the serving process starts its sandbox only
 * then, so the worker threads do not compete with the first answer for the CPU.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createMcpServer, type SurfaceDeps } from '../engine/surface/index.ts';

export interface StdioSession {
  /** Settles when the client has gone (stdin ended) or the session was closed. */
  closed: Promise<void>;
  /** Settles when the first request other than `initialize` has been answered (or the session closed). */
  firstAnswered: Promise<void>;
  close(): Promise<void>;
}

/** Serves the surface on this process's stdin and stdout (or the streams given, for tests). */
export function serveMcpStdio(
  deps: SurfaceDeps,
  streams: { stdin?: Readable; stdout?: Writable } = {},
): StdioSession {
  const wire = new StdioServerTransport(streams.stdin, streams.stdout);
  const handle = serveStdio(() => createMcpServer(deps), {
    transport: wire,
    onerror: (error) => deps.log?.('the stdio connection reported an error', error.message),
  });
  // serveStdio installs its own onclose on the wire; chain after it to learn when the client left.
  const closed = new Promise<void>((resolve) => {
    const own = wire.onclose;
    wire.onclose = () => {
      own?.();
      resolve();
    };
  });
  const firstAnswered = new Promise<void>((resolve) => {
    void closed.then(resolve);
    answeredOnce(wire, resolve);
  });
  return { closed, firstAnswered, close: () => handle.close() };
}

/**
 * Calls `answered` once the wire has sent the answer to a request other than `initialize`:
 * chained after the handlers `serveStdio` installed, which stay in charge of both directions.
 */
function answeredOnce(wire: StdioServerTransport, answered: () => void): void {
  const asked = new Set<string | number>();
  let done = false;
  const own = wire.onmessage;
  wire.onmessage = (message: JSONRPCMessage) => {
    if (!done && 'method' in message && 'id' in message && message.method !== 'initialize') {
      asked.add(message.id);
    }
    own?.(message);
  };
  const send = wire.send.bind(wire);
  wire.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (done || 'method' in message || !('id' in message) || message.id === undefined) return;
    if (!asked.has(message.id)) return;
    done = true;
    asked.clear();
    answered();
  };
}
