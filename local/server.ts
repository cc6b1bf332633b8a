/**
 * Serves worker/app.ts under Node on 127.0.0.1 only (`capabilities hub serve --http`, and the
 * page host of `serve --pages`). The app is the Worker's; this file only binds it to a loopback
 * socket, with the Host names a loopback client sends and the /mcp handler and pages it is
 * given, and turns a busy port into advice.
 */
import { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { HubError } from '../engine/errors.ts';
import { type AppOptions, createApp } from '../worker/app.ts';
import type { LocalHub } from './local-hub.ts';

export const LOOPBACK = '127.0.0.1';
/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 120_000;

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** What a loopback server serves besides /healthz: the MCP surface, the pages, or both. */
export interface LoopbackRoutes {
  /** The bearer token's file, which a 401 names. */
  tokenFile?: string;
  mcp?: AppOptions['mcp'];
  /** Also routes `/mcp/<profile>` to `mcp`. */
  mcpProfiles?: boolean;
  pages?: AppOptions['pages'];
}

/**
 * Listens on 127.0.0.1:`port` (0 picks a free port), serving `routes`. Rejects with advice when
 * the port is taken.
 */
export function serveHttp(hub: LocalHub, port: number, routes: LoopbackRoutes): Promise<RunningServer> {
  // The app is built once the port is known (port 0 picks one), since the Host check names it.
  let app: Hono | undefined;
  const server = createAdaptorServer({
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response(null, { status: 503 })),
    hostname: LOOPBACK,
    port,
  });
  // Node closes an idle kept-alive connection after 5 s. A client that reuses it just then (its
  // own idle timer has not fired yet, say because its process was busy) loses the request with
  // "other side closed", and a POST is not retried. MCP clients idle between tool calls for far
  // longer, so idle connections are kept for two minutes; this server only ever faces loopback.
  if (server instanceof HttpServer) server.keepAliveTimeout = KEEP_ALIVE_MS;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new HubError(
            'unavailable',
            `port ${port} on ${LOOPBACK} is already in use by another program. ` +
              'Pick another with `capabilities hub serve --http --port <n>`, or stop the program using it.',
          ),
        );
      } else {
        reject(error);
      }
    });
    server.listen(port, LOOPBACK, () => {
      const bound = (server.address() as AddressInfo).port;
      app = createApp({
        hub: { health: async () => ({ hubId: hub.hubId, schemaVersion: hub.store.schemaVersion }) },
        token: hub.token,
        allowedHosts: [`${LOOPBACK}:${bound}`, `localhost:${bound}`],
        ...(routes.mcp ? { mcp: routes.mcp } : {}),
        ...(routes.mcpProfiles ? { mcpProfiles: true } : {}),
        ...(routes.pages ? { pages: routes.pages } : {}),
        ...(routes.tokenFile ? { tokenHint: `the token in ${routes.tokenFile}` } : {}),
      });
      resolve({
        url: `http://${LOOPBACK}:${bound}`,
        port: bound,
        // A browser keeps idle connections open; they must not hold the close up.
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
  });
}
