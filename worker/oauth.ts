/**
 * The hosted hub as an OAuth 2.1 authorization server for MCP clients, through
 * @cloudflare/workers-oauth-provider (grants and tokens hashed in OAUTH_KV): protected-resource
 * metadata (RFC 9728) and the 401 challenge that names it, authorization-server metadata
 * (RFC 8414), dynamic client registration (RFC 7591), PKCE S256 only, access tokens of one hour
 * with rotating refresh tokens, revocation. `/authorize` is ours (worker/consent.ts); `/mcp` is
 * the API, whose handler gets the grant's person in `ctx.props` and serves that person's hub.
 * Its tokens carry `hub` (MCP), and `hub:configure` when the client asked for it and the person
 * saw so on the consent page: only those reach the management API under `/mcp/hub/`.
 *
 * The resource is `<origin>/mcp` of the origin the request came to, so one deployment answers on
 * its own name (and `http://127.0.0.1:8787` under `wrangler dev`); a token is good only there.
 *
 * HUB_TOKEN, when set, is the self-hosting way in for one person: `/mcp` also accepts it, for the
 * hub named HUB_NAME. It is checked only after every token this server issued, it reaches nothing
 * but `/mcp`, and its client is never offered the client prompt (worker/index.ts), so it can
 * never record a decision.
 */
import { OAuthError, OAuthProvider, type OAuthProviderOptions } from '@cloudflare/workers-oauth-provider';
import { timingSafeEqual } from 'hono/utils/buffer';
import type { HubEnv } from '../durable-objects/hub-env.ts';
import { CONFIGURE_SCOPE } from '../engine/contracts/configuration.ts';
import { mayEnter } from './sign-in/allowlist.ts';

/** What a grant carries to `/mcp`: whose hub it opens. Never a GitHub token. */
export interface GrantProps {
  /** The hub's name: `github:<numeric id>` for a person, the self-hosting hub's name for HUB_TOKEN. */
  hub: string;
  /** For messages only: the GitHub login when the grant was made (it can change; the hub never does). */
  login?: string;
  /**
   * Set for the self-hosting HUB_TOKEN: no person signed in behind it, so its client is never
   * asked to record a decision in its own prompt; decisions are the dashboard's.
   */
  selfHosted?: true;
}

/** The scope every client gets: everything the person's hub offers over MCP. */
export const HUB_SCOPE = 'hub';

/**
 * The scopes this server grants: `hub`, and `hub:configure` (CONFIGURE_SCOPE, the management API
 * `hub push` and `hub status` call) for a client that asks for it; MCP agents ask only for `hub`.
 */
export const SUPPORTED_SCOPES: readonly string[] = [HUB_SCOPE, CONFIGURE_SCOPE];

/**
 * What a person's approval grants for `requested`: always `hub`, and `hub:configure` only when
 * asked for by a client on the person's own computer (its redirect URI is http on a loopback
 * address, as `hub login`'s is): a web app that names itself anything never gets to change the
 * hub's configuration, whatever the person clicks.
 */
export function grantedScopes(requested: readonly string[], redirectUri: string): string[] {
  return requested.includes(CONFIGURE_SCOPE) && isLoopbackRedirect(redirectUri)
    ? [HUB_SCOPE, CONFIGURE_SCOPE]
    : [HUB_SCOPE];
}

/** An http redirect URI on 127.0.0.1, [::1] or localhost (RFC 8252's loopback redirect). */
function isLoopbackRedirect(redirectUri: string): boolean {
  const url = URL.parse(redirectUri);
  return url?.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

export const AUTHORIZE_PATH = '/authorize';
export const TOKEN_PATH = '/token';
export const REGISTER_PATH = '/register';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/** The hub a self-hosting HUB_TOKEN serves. */
export const selfHostedHub = (env: HubEnv): string => env.HUB_NAME ?? 'default';

export interface OAuthHandlers {
  /** `/mcp` with a valid token: `ctx.props` is the grant's `GrantProps`. */
  api: ExportedHandler<HubEnv> & { fetch: NonNullable<ExportedHandler<HubEnv>['fetch']> };
  /** Everything else that is not the provider's: /authorize, sign-in, the dashboard, /healthz. */
  pages: ExportedHandler<HubEnv>;
}

/** The provider for one origin (the resource and the issuer are fixed when it is built). */
export function oauthProvider(origin: string, handlers: OAuthHandlers): OAuthProvider<HubEnv> {
  return new OAuthProvider<HubEnv>(oauthOptions(origin, handlers));
}

/** The provider's options for one origin; also what `getOAuthApi` needs to list and revoke grants outside a request. */
export function oauthOptions(origin: string, handlers: OAuthHandlers): OAuthProviderOptions<HubEnv> {
  const resource = `${origin}/mcp`;
  return {
    apiRoute: '/mcp',
    apiHandler: handlers.api,
    defaultHandler: handlers.pages,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...SUPPORTED_SCOPES],
    clientIdMetadataDocumentEnabled: true,
    requiredScopes: [HUB_SCOPE],
    resourceMetadata: {
      resource,
      authorization_servers: [origin],
      resource_name: 'capabilities hub',
    },
    accessTokenTTL: HOUR,
    refreshTokenTTL: 30 * DAY,
    // The allowlist holds at every token, not only at sign-in: a login taken off it loses its
    // clients at their next refresh (the grant is revoked), not after 30 days.
    tokenExchangeCallback: ({ props, env }) => {
      const login = (props as GrantProps).login;
      if (login !== undefined && !mayEnter(env.SIGNUP_ALLOWLIST, login)) {
        throw new OAuthError('invalid_grant', { description: 'this account may no longer use this hub' });
      }
    },
    resolveExternalToken: async ({ token, env }) => {
      const selfHost = env.HUB_TOKEN;
      if (!selfHost || selfHost.length < 32 || !(await timingSafeEqual(token, selfHost))) return null;
      const props: GrantProps = { hub: selfHostedHub(env), selfHosted: true };
      return { props, audience: resource };
    },
  };
}

/** One provider per origin the Worker is reached at, built once. */
const providers = new Map<string, OAuthProvider<HubEnv>>();

export function providerFor(request: Request, handlers: OAuthHandlers): OAuthProvider<HubEnv> {
  const origin = new URL(request.url).origin;
  let provider = providers.get(origin);
  if (!provider) {
    provider = oauthProvider(origin, handlers);
    providers.set(origin, provider);
  }
  return provider;
}
