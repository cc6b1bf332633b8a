/**
 * Signing the hub in to a source that asks for OAuth (spec: Concepts, Connection; M2): the client
 * side of MCP authorization, for `hub add <url>` of a server that answers 401 and for
 * `hub auth <namespace>`. Discovery of the protected resource metadata and its authorization
 * server (from the 401's `resource_metadata`, else the well-known places), then registration:
 * dynamic (RFC 7591) for this exact loopback redirect URI, or the pre-registered client the person
 * named with `--client-id` (and its secret, read at a masked prompt). Then the browser sign-in
 * every OAuth sign-in of the CLI shares (browser-sign-in.ts): PKCE, the person's browser, the
 * loopback redirect. What comes back is the connection's grant (engine/secrets/oauth-grant.ts):
 * the tokens and what a refresh needs without the person. Nothing is kept here: the caller stores
 * the grant once the source is added.
 *
 * A client ID metadata document (SEP-991) needs an https URL that describes the client; the CLI
 * has none to offer, so it registers dynamically instead.
 */
import {
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  OAuthError,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import { HubError, isHubError } from '../../engine/errors.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { fetchFailure, firstLine } from '../hosted/hosted-errors.ts';
import { signInWithBrowser } from './browser-sign-in.ts';
import { startLoopbackRedirect } from './loopback-redirect.ts';
import { LoopbackOAuthProvider } from './oauth-client.ts';

/** What the hub calls itself on a source's consent page. */
export const SOURCE_CLIENT_NAME = 'capabilities hub';

/** What every sign-in to a source takes from the person's side: the client, the browser, the words. */
export interface SignInPerson {
  /** A pre-registered client (`--client-id`), and its secret when it is a confidential one. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** The command that starts again, for the person: "`capabilities hub add https://…`". */
  again: string;
  env: NodeJS.ProcessEnv;
  openBrowser?: boolean | undefined;
  note: (text: string) => void;
  now?: () => number;
}

export interface SourceSignIn extends SignInPerson {
  /** The source's MCP endpoint (the protected resource). */
  url: string;
  /** From the 401's WWW-Authenticate, when it named one. */
  resourceMetadataUrl?: URL | undefined;
}

/** Signs in to the source at `sign.url` in the person's browser; resolves with the grant. */
export async function signInToSource(sign: SourceSignIn): Promise<OAuthGrant> {
  const serverUrl = new URL(sign.url);
  const what = serverUrl.origin;
  const failure = (error: unknown) => signInFailure(what, sign.again, error);
  const found = await discoverOAuthServerInfo(serverUrl, {
    ...(sign.resourceMetadataUrl ? { resourceMetadataUrl: sign.resourceMetadataUrl } : {}),
  }).catch((error: unknown) => {
    throw failure(error);
  });
  const metadata = found.authorizationServerMetadata;
  if (!metadata) {
    throw new HubError(
      'unauthorized',
      `${what} asks for a sign-in but publishes no OAuth authorization server the hub can find (RFC 9728, RFC 8414), so the hub cannot sign in to it. Check the address, or ask its operator how to connect.`,
    );
  }
  const redirect = await startLoopbackRedirect(sign.again.replaceAll('`', ''));
  try {
    const provider = new LoopbackOAuthProvider({
      redirectUrl: redirect.url,
      clientName: SOURCE_CLIENT_NAME,
      client: preRegistered(sign, redirect.url),
      onAuthorize: () => {},
      ...(sign.now ? { now: sign.now } : {}),
    });
    if (!sign.clientId && !metadata.registration_endpoint) {
      throw new HubError(
        'invalid_input',
        `the authorization server of ${what} does not register clients on its own (it has no registration endpoint); register the hub with it (redirect URI http://127.0.0.1/callback, any port) and run ${sign.again} again with --client-id <its client id>`,
      );
    }
    provider.saveDiscoveryState(found);
    await signInWithBrowser({
      provider,
      redirect,
      serverUrl,
      what,
      again: sign.again,
      failure,
      notAsked: () =>
        new HubError('unavailable', `${what} did not ask for a sign-in; run ${sign.again} again`),
      env: sign.env,
      openBrowser: sign.openBrowser,
      note: sign.note,
    });
    const tokens = provider.keptTokens;
    const client = provider.clientInformation() as
      | (StoredOAuthClientInformation & { client_secret?: string })
      | undefined;
    if (!tokens || !client) {
      throw new HubError(
        'unavailable',
        `the authorization server of ${what} granted no token; run ${sign.again} again`,
      );
    }
    const resource = found.resourceMetadata?.resource;
    return {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
      ...(tokens.expires_at === undefined ? {} : { expires_at: tokens.expires_at }),
      ...(tokens.lifetime_ms === undefined ? {} : { lifetime_ms: tokens.lifetime_ms }),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      authorization_server: metadata.issuer,
      token_endpoint: metadata.token_endpoint,
      ...(metadata.token_endpoint_auth_methods_supported
        ? { token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported }
        : {}),
      ...('revocation_endpoint' in metadata && typeof metadata.revocation_endpoint === 'string'
        ? { revocation_endpoint: metadata.revocation_endpoint }
        : {}),
      ...(resource ? { resource: String(resource) } : {}),
      issued_for: what,
      client_id: client.client_id,
      ...(client.client_secret ? { client_secret: client.client_secret } : {}),
    };
  } finally {
    await redirect.close();
  }
}

/** The client the person registered themselves, when they named one. */
function preRegistered(sign: SourceSignIn, redirectUrl: string): StoredOAuthClientInformation | undefined {
  if (!sign.clientId) return undefined;
  return {
    client_id: sign.clientId,
    redirect_uris: [redirectUrl],
    ...(sign.clientSecret ? { client_secret: sign.clientSecret } : {}),
  } as StoredOAuthClientInformation;
}

/** An error met while signing in to a source, as the person should see it, with what to do next. */
export function signInFailure(what: string, again: string, error: unknown): HubError {
  if (isHubError(error)) return error;
  const reason = fetchFailure(error);
  if (reason !== undefined) {
    return new HubError(
      'unavailable',
      `could not reach the authorization server of ${what} (${reason}); check that it is up, then run ${again} again`,
    );
  }
  const message = firstLine(error instanceof Error ? error.message : String(error));
  if (error instanceof OAuthError) {
    const mismatch = /redirect/i.test(message)
      ? ' If you gave --client-id, that client must allow the redirect URI http://127.0.0.1/callback on any port.'
      : '';
    return new HubError(
      'denied',
      `the authorization server of ${what} refused the sign-in (${error.code}: ${message});${mismatch} run ${again} to try again`,
    );
  }
  return new HubError(
    'unavailable',
    `the authorization server of ${what} did not answer as OAuth asks (${message}); run ${again} to try again, or ask its operator`,
  );
}

/**
 * The `resource_metadata` a source's 401 names (RFC 9728 §5.1), asked with an MCP initialize
 * sent without a credential; undefined when it names none or cannot be asked.
 */
export async function challengeOf(url: string): Promise<URL | undefined> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: SOURCE_CLIENT_NAME, version: '0' },
        },
      }),
    });
    await response.body?.cancel();
    return response.status === 401 ? extractWWWAuthenticateParams(response).resourceMetadataUrl : undefined;
  } catch {
    return undefined;
  }
}
