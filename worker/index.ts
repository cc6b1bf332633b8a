/**
 * The Cloudflare entry: one Worker serving many people, one HubObject per person.
 *
 * Every request goes through the OAuth provider (worker/oauth.ts): `/mcp` (the `default` profile)
 * and `/mcp/<profile>` with a valid token are served from the HubObject the token's grant names (`github:<id>`; nothing in a request can
 * name another), over RPC with the same MCP handler as the local hub, and so is the management
 * API under `/mcp/hub/` (worker/hub-api.ts) for a token with the configure scope; the provider
 * answers its own endpoints (metadata, `/token`, `/register`); everything else is ours: `/healthz`,
 * the web app's public files (`/manifest.webmanifest`, `/sw.js`, `/app.js`, icons;
 * dashboard/app-shell.ts), GitHub sign-in (`/login`, `/login/callback`, `/logout`, worker/sign-in/),
 * the hub's client ID metadata document for signing in to sources (`/sources/oauth/client.json`),
 * the consent page (`/authorize`, worker/consent.ts), and the dashboard, which the signed-in
 * person's HubObject renders (its `fetch`, told who is signed in by
 * durable-objects/signed-in-header.ts). An MCP token never opens a page and a sign-in cookie never opens `/mcp`: the two ways in are apart.
 */
import type { OAuthResourceAuth } from '@cloudflare/workers-oauth-provider';
import { Hono } from 'hono';
import { appShellRoutes } from '../dashboard/app-shell.ts';
import type { HubEnv } from '../durable-objects/hub-env.ts';
import { HubObject, type ProfileSurface, SOURCE_CLIENT_NAME } from '../durable-objects/hub-object.ts';
import { withSignedIn } from '../durable-objects/signed-in-header.ts';
import { DEFAULT_PROFILE, ProfileName } from '../engine/contracts/profiles.ts';
import { isHubError } from '../engine/errors.ts';
import { clientDocumentOf, SIGN_IN_PATHS } from '../engine/sources/sign-in-client.ts';
import { createMcpHttpHandler } from '../engine/surface/index.ts';
import pkg from '../package.json';
import { mcpRoute } from './app.ts';
import { consentRoutes, type SignedInReader } from './consent.ts';
import { HUB_API_PREFIX, serveHubApi } from './hub-api.ts';
import { hubObjectSurface, profileSurface } from './hub-surface.ts';
import { type GrantProps, type OAuthHandlers, providerFor, selfHostedHub } from './oauth.ts';
import { mayEnter } from './sign-in/allowlist.ts';
import { signInRoutes } from './sign-in/routes.ts';
import { readSignIn } from './sign-in/sessions.ts';

/** The guest bridge, exported so `ctx.exports.SandboxBridge` exists (WorkerLoaderSandbox). */
export { SandboxBridge } from '../durable-objects/sandbox-bridge.ts';
export { HubObject };

const hubNamed = (env: HubEnv, name: string) => env.HUB.get(env.HUB.idFromName(name));

/**
 * `/mcp`, reached only with a token the provider accepted: the grant's hub, and only it. The
 * management API below `/mcp/hub/` (worker/hub-api.ts) needs the configure scope; the rest is MCP.
 */
const api: OAuthHandlers['api'] = {
  async fetch(request, env, ctx) {
    const { props, auth } = ctx as ExecutionContext & { props: GrantProps; auth: OAuthResourceAuth };
    const hub = hubNamed(env, props.hub);
    const path = new URL(request.url).pathname;
    if (path.startsWith(HUB_API_PREFIX)) return serveHubApi(request, { props, auth }, hub);
    const profile = profileOf(path);
    if (profile === undefined)
      return notFound(`no MCP endpoint at ${path}: the hub serves /mcp and /mcp/<profile>`);
    let served: ProfileSurface;
    try {
      served = await profileSurface(hub, profile);
    } catch (error) {
      if (isHubError(error, 'not_found')) return notFound(error.message);
      throw error;
    }
    const surface = hubObjectSurface(hub, pkg.version, profile, served);
    // A self-hosting token has no person behind it: its client is never asked to decide.
    if (props.selfHosted) delete surface.prompt;
    const app = new Hono();
    mcpRoute(app, createMcpHttpHandler(surface).fetch, undefined, undefined, path);
    return app.fetch(request, env, ctx);
  },
};

/** `/mcp` is the `default` profile's endpoint, `/mcp/<name>` each other's; undefined for another path. */
function profileOf(path: string): string | undefined {
  if (path === '/mcp' || path === '/mcp/') return DEFAULT_PROFILE;
  const name = /^\/mcp\/([^/]+)\/?$/.exec(path)?.[1];
  return name !== undefined && ProfileName.safeParse(name).success ? name : undefined;
}

/** A 404 an MCP client reports: a JSON-RPC error with what to do. */
function notFound(message: string): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32601, message } }, { status: 404 });
}

/** The sign-in session, while its login may still use the hub (SIGNUP_ALLOWLIST is read at every request). */
async function currentSignIn(request: Request, env: HubEnv) {
  const session = await readSignIn(request, env);
  return session && mayEnter(env.SIGNUP_ALLOWLIST, session.login) ? session : null;
}

const signedIn: SignedInReader = async (request, env) => {
  const session = await currentSignIn(request, env);
  return session && { person: session.person, login: session.login };
};

const pagesApp = new Hono<{ Bindings: HubEnv }>();

/** The service answers; with a self-hosting HUB_TOKEN, also that hub's id and schema version. */
pagesApp.get('/healthz', async (c) => {
  if (!c.env.HUB_TOKEN) return c.json({ status: 'ok', version: pkg.version });
  return c.json(await hubNamed(c.env, selfHostedHub(c.env)).health());
});
/**
 * The installable dashboard's manifest, icons, service worker and page script (issue #37):
 * public and the same for everyone, since a browser fetches a manifest and a service worker
 * without cookies.
 */
pagesApp.route('/', appShellRoutes());
pagesApp.route('/', signInRoutes());
/**
 * The hub's client ID metadata document (SEP-991), public: an authorization server that reads such
 * documents knows the hub as a client by this URL when the hub signs in to a source.
 */
pagesApp.get(SIGN_IN_PATHS.clientDocument, (c) => {
  const origin = new URL(c.req.url).origin;
  return c.json(clientDocumentOf(SOURCE_CLIENT_NAME, origin), 200, { 'cache-control': 'max-age=3600' });
});
pagesApp.route('/', consentRoutes(signedIn) as unknown as Hono<{ Bindings: HubEnv }>);

/** The dashboard: the signed-in person's own hub renders it; anyone else signs in first. */
pagesApp.all('*', async (c) => {
  const session = await currentSignIn(c.req.raw, c.env);
  if (!session) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Sign in first.', 401);
    const url = new URL(c.req.url);
    return c.redirect(`/login?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, 302);
  }
  // A form of the dashboard comes from the dashboard: a write whose browser says it came from
  // another origin (or an opaque one, `null`) is refused before the hub reads it, as the local
  // pages refuse one (worker/app.ts), beside the session's CSRF token and its SameSite cookie.
  const origin = c.req.header('origin');
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && origin !== undefined) {
    if (origin !== new URL(c.req.url).origin) return c.text('Refused: the form came from another site.', 403);
  }
  const hub = hubNamed(c.env, session.person);
  return hub.fetch(withSignedIn(c.req.raw, { who: `github:${session.login}`, csrf: session.csrf }));
});

const handlers: OAuthHandlers = {
  api,
  pages: { fetch: (request, env, ctx) => pagesApp.fetch(request, env, ctx) },
};

export default {
  fetch(request, env, ctx): Promise<Response> {
    return providerFor(request, handlers).fetch(request, env, ctx);
  },
} satisfies ExportedHandler<HubEnv>;
