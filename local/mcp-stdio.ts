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
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createMcpServer, type SurfaceDeps } from '../engine/surface/index.ts';

export interface StdioSession {
  /** Settles when the client has gone (stdin ended) or the session was closed. */
  closed: Promise<void>;
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
  return { closed, close: () => handle.close() };
}
