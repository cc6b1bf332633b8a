/**
 * Signing the hub in to an OpenAPI source's API whose document names an OAuth 2 authorization
 * code flow (spec: J3, "OAuth 2 through the same flow" as a remote MCP server). The document
 * gives the authorization and token URLs and the scopes its operations list; there is no
 * protected resource metadata to discover. The authorization server's own metadata (RFC 8414,
 * at the authorization URL's origin) is used only when it names those same two endpoints: then
 * it may offer dynamic registration, a revocation endpoint and its client authentication
 * methods. Otherwise the person registers the hub with the service and gives `--client-id`.
 *
 * The browser part is every sign-in's (browser-sign-in.ts): PKCE, the person's browser, the
 * loopback redirect. What comes back is the connection's grant (engine/secrets/oauth-grant.ts),
 * issued for the API's origin only: the access token goes nowhere else (I4).
 */
import { randomBytes } from 'node:crypto';
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  type OAuthClientInformationMixed,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/client';
import type { OAuthFlowAsk } from '../../engine/connectors/openapi/security.ts';
import { HubError } from '../../engine/errors.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { awaitBrowser } from './browser-sign-in.ts';
import { startLoopbackRedirect } from './loopback-redirect.ts';
import { type SignInPerson, SOURCE_CLIENT_NAME, signInFailure } from './upstream-sign-in.ts';

/** How long the look for the authorization server's metadata may take before going without it. */
const DISCOVERY_MS = 10_000;

export interface ApiSignIn extends SignInPerson {
  flow: OAuthFlowAsk;
  /** The API's server URL: the tokens are issued for its origin. */
  serverUrl: string;
}

/** Signs in to the API's authorization server in the person's browser; resolves with the grant. */
export async function signInToApi(sign: ApiSignIn): Promise<OAuthGrant> {
  const { flow } = sign;
  const what = new URL(flow.authorizationUrl).origin;
  const failure = (error: unknown) => signInFailure(what, sign.again, error);
  const published = await publishedMetadata(flow);
  const tokenOrigin = new URL(flow.tokenUrl).origin;
  if (!published && tokenOrigin !== what) {
    // The code, the verifier and a client secret go to the token URL: one on another origin than
    // the page the person signs in on is a document sending them elsewhere, unless the
    // authorization server itself names that endpoint.
    throw new HubError(
      'denied',
      `the document's OAuth 2 flow sends the sign-in from ${what} to a token URL on another origin, ${tokenOrigin}, and the authorization server publishes no metadata that names it; the hub does not sign in there. Check the document with the API's operator.`,
    );
  }
  const metadata = published ?? documentMetadata(flow);
  const scope = flow.scopes.length > 0 ? flow.scopes.join(' ') : undefined;
  const redirect = await startLoopbackRedirect(sign.again.replaceAll('`', ''));
  try {
    const client = await clientFor(sign, metadata, redirect.url, scope, what).catch((error: unknown) => {
      throw failure(error);
    });
    const state = randomBytes(16).toString('base64url');
    const { authorizationUrl, codeVerifier } = await startAuthorization(metadata.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl: redirect.url,
      state,
      ...(scope ? { scope } : {}),
    }).catch((error: unknown) => {
      throw failure(error);
    });
    const callback = await awaitBrowser({ ...sign, redirect, what }, authorizationUrl, () => state);
    const tokens = await exchangeAuthorization(metadata.issuer, {
      metadata,
      clientInformation: client,
      fetchFn: noRedirects,
      authorizationCode: callback.code,
      // `iss` can be checked only against an issuer the server published itself.
      ...(published ? { iss: callback.iss } : {}),
      codeVerifier,
      redirectUri: redirect.url,
    }).catch((error: unknown) => {
      throw failure(error);
    });
    const now = (sign.now ?? Date.now)();
    const secret = 'client_secret' in client ? client.client_secret : undefined;
    return {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      ...(typeof tokens.expires_in === 'number'
        ? { expires_at: now + tokens.expires_in * 1000, lifetime_ms: tokens.expires_in * 1000 }
        : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      authorization_server: metadata.issuer,
      token_endpoint: flow.tokenUrl,
      ...(metadata.token_endpoint_auth_methods_supported
        ? { token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported }
        : {}),
      ...('revocation_endpoint' in metadata && typeof metadata.revocation_endpoint === 'string'
        ? { revocation_endpoint: metadata.revocation_endpoint }
        : {}),
      issued_for: new URL(sign.serverUrl).origin,
      client_id: client.client_id,
      ...(secret ? { client_secret: secret } : {}),
    };
  } finally {
    await redirect.close();
  }
}

/**
 * The authorization server's published metadata, when it names the document's own authorization
 * and token endpoints; undefined when it publishes none, cannot be reached, or names others (the
 * document's endpoints are what the person reviewed).
 */
async function publishedMetadata(flow: OAuthFlowAsk): Promise<AuthorizationServerMetadata | undefined> {
  const origin = new URL(flow.authorizationUrl).origin;
  const timeout = AbortSignal.timeout(DISCOVERY_MS);
  try {
    const found = await discoverAuthorizationServerMetadata(origin, {
      fetchFn: (url, init) => fetch(url, { ...init, signal: timeout, redirect: 'error' }),
    });
    if (!found || found.authorization_endpoint !== flow.authorizationUrl) return undefined;
    if (found.token_endpoint !== flow.tokenUrl) return undefined;
    return found as AuthorizationServerMetadata;
  } catch {
    return undefined;
  }
}

/** A fetch that follows no redirect: a code or a secret posted to one endpoint goes nowhere else. */
const noRedirects = (url: string | URL, init?: RequestInit) => fetch(url, { ...init, redirect: 'error' });

/** What the document alone says of its authorization server. */
function documentMetadata(flow: OAuthFlowAsk): AuthorizationServerMetadata {
  return {
    issuer: new URL(flow.authorizationUrl).origin,
    authorization_endpoint: flow.authorizationUrl,
    token_endpoint: flow.tokenUrl,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}

/** The client the hub signs in as: the one the person named, else one registered now. */
async function clientFor(
  sign: ApiSignIn,
  metadata: AuthorizationServerMetadata,
  redirectUrl: string,
  scope: string | undefined,
  what: string,
): Promise<OAuthClientInformationMixed> {
  if (sign.clientId) {
    return { client_id: sign.clientId, ...(sign.clientSecret ? { client_secret: sign.clientSecret } : {}) };
  }
  if (!metadata.registration_endpoint) {
    throw new HubError(
      'invalid_input',
      `the authorization server of ${what} does not register clients on its own (it publishes no registration endpoint); register the hub with the service (redirect URI http://127.0.0.1/callback, any port) and run ${sign.again} again with --client-id <its client id>`,
    );
  }
  return registerClient(metadata.issuer, {
    metadata,
    fetchFn: noRedirects,
    clientMetadata: {
      client_name: SOURCE_CLIENT_NAME,
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scope ? { scope } : {}),
    },
  });
}
