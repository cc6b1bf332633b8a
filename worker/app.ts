/**
 * The one Hono app, served by the Worker and by the local host alike. Runtime-neutral: it
 * imports hono and engine/ only, and reaches the hub through the small `AppHub` interface
 * each host fills in.
 *
 * Routes: `GET /healthz` answers without a token (with `?nonce=`, also a proof that this server
 * holds the token, for a process of the hub finding its page host); `/mcp` needs the bearer token and answers 401
 * without it, a bearer challenge and a JSON-RPC error saying where the token is (never the token); every other path is the host's pages when it passes them (their
 * own page session guards them), else needs the token too. `/mcp` is the MCP surface when the host passes its
 * handler (engine/surface/http.ts builds one); the app guards it (token, body size) and hands the request on. A
 * host that serves on loopback also passes the Host names it answers to, which defeats DNS
 * rebinding (a page on evil.example resolving to 127.0.0.1 still sends `Host: evil.example`).
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { timingSafeEqual } from 'hono/utils/buffer';
import { hostProof, NONCE_SHAPE } from '../engine/host-proof.ts';
import type { HubHealth } from '../engine/hub-health.ts';
import { MAX_REQUEST_BYTES } from '../engine/surface/http.ts';

export type { HubHealth };

/** The part of a hub the app needs; each host adapts its engine to it. */
export interface AppHub {
  health(): Promise<HubHealth>;
}

export interface AppOptions {
  hub: AppHub;
  /** The bearer token every route but /healthz requires. */
  token: string;
  /** When set, requests whose Host (and Origin, if sent) is not one of these are refused. */
  allowedHosts?: readonly string[];
  /** Serves `/mcp` (Streamable HTTP, every method) once the token and Host checks passed. */
  mcp?: (request: Request) => Promise<Response>;
  /**
   * The approval page and the dashboard (dashboard/, wrapped in the host's session middleware):
   * every path but /healthz and /mcp. They need no bearer token: a person reaches them with the
   * page session a one-time link opened, which the host's middleware checks.
   */
  pages?: (request: Request) => Response | Promise<Response>;
  /** The largest /mcp request body (default: the surface's own MAX_REQUEST_BYTES, 1 MiB). */
  mcpMaxBytes?: number;
  /**
   * Also serves `/mcp/<profile>` through `mcp`, behind the same guards: each profile's own endpoint
   * (the handler reads the profile from the path; `/mcp` is `default`'s). The local host only.
   */
  mcpProfiles?: boolean;
  /** Where a client finds the bearer token (`the token in /home/ada/.capabilities/hub/http-token`), said in a 401. */
  tokenHint?: string;
}

export function createApp(options: AppOptions): Hono {
  if (options.token.length < 32) throw new Error('the hub token must be at least 32 characters');
  const app = new Hono();
  const allowed = options.allowedHosts && new Set(options.allowedHosts.map((h) => h.toLowerCase()));

  app.use('*', async (c, next) => {
    if (!allowed) return next();
    const host = c.req.header('host')?.toLowerCase();
    const origin = c.req.header('origin');
    if (!host || !allowed.has(host) || (origin !== undefined && !originAllowed(origin, allowed))) {
      return c.text('Forbidden: this hub answers only on loopback.', 403);
    }
    return next();
  });

  // With `?nonce=`, also the proof that this server holds the hub's token (engine/host-proof.ts).
  app.get('/healthz', async (c) => {
    const health = await options.hub.health();
    const nonce = c.req.query('nonce');
    if (nonce === undefined || !NONCE_SHAPE.test(nonce)) return c.json(health);
    return c.json({ ...health, proof: await hostProof(options.token, nonce) });
  });

  // A missing or wrong token is a bearer challenge (RFC 6750) saying where the token is, with a
  // JSON-RPC error an MCP client reports: nothing here is OAuth, so no client should start a flow.
  const refusal = `this hub takes a bearer token: send \`Authorization: Bearer <${options.tokenHint ?? "the hub's token"}>\``;
  const bearer: MiddlewareHandler = async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1] || !(await timingSafeEqual(match[1], options.token))) {
      const said = match?.[1] ? `the bearer token is wrong; ${refusal}` : `no bearer token; ${refusal}`;
      return c.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: said } }, 401, {
        'WWW-Authenticate': `Bearer realm="capabilities", error="invalid_token", error_description=${quoted(said)}`,
      });
    }
    return next();
  };

  if (options.mcp) mcpRoute(app, options.mcp, options.mcpMaxBytes, bearer);
  if (options.mcp && options.mcpProfiles)
    mcpRoute(app, options.mcp, options.mcpMaxBytes, bearer, '/mcp/:profile');

  // The pages answer every other path behind their own session (a bearer token is for programs,
  // a page session for a person); without pages, every other path needs the token.
  const pages = options.pages;
  if (pages) app.all('*', (c) => pages(c.req.raw));
  else app.use('*', bearer);

  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404),
  );
  return app;
}

/**
 * `/mcp` (or `path`) on `app`: the MCP surface behind `guard` (the bearer token here; the Worker's OAuth
 * provider checks its tokens before its handler runs), with the body limit refused before
 * anything reads the body (the connection closes, since the rest of the body is unread).
 */
export function mcpRoute(
  app: Hono,
  mcp: (request: Request) => Promise<Response>,
  maxBytes: number = MAX_REQUEST_BYTES,
  guard?: MiddlewareHandler,
  path = '/mcp',
): void {
  const tooLarge = bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json(
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `Request body too large: the limit is ${maxBytes} bytes` },
        },
        413,
        { connection: 'close' },
      ),
  });
  if (guard) app.use(path, guard);
  app.all(path, tooLarge, (c) => mcp(c.req.raw));
}

function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && allowed.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}

/** `text` as an RFC 7230 quoted-string (its quotes and backslashes escaped). */
function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
