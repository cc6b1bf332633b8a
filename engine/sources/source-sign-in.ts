/**
 * class SourceSignIns: a hub that serves pages signs itself in to a source that asks for OAuth
 * (spec: Concepts, Connection; M2), the hosted hub's way (the CLI's is local/oauth/). Two steps,
 * each one request of the person's browser:
 *
 * - `start` discovers the source's authorization server (the 401's `resource_metadata`, else the
 *   well-known places: RFC 9728, RFC 8414), registers the hub as a client (the hub's client ID
 *   metadata document where the server takes one and the hub has an https URL for it, SEP-991;
 *   else dynamically, RFC 7591, for this exact redirect URI), and builds the authorization URL with
 *   PKCE (S256) and a random `state`. What the second step needs (the verifier, the client, the
 *   endpoints, who started it, what for) is kept as a pending sign-in in the secret store, under a
 *   key made from the SHA-256 of the `state` (never the state itself), for SIGN_IN_LIFETIME_MS.
 * - `finish` takes the pending sign-in of the `state` that came back, once (TakingSecretStore:
 *   of two callbacks with one state, one gets it), refuses one that expired or that another
 *   person started, and redeems the code at the token endpoint recorded at `start` with the
 *   verifier: the grant (oauth-grant.ts) is what it returns; the caller keeps it.
 *
 * Every request goes through the guarded fetch: where the host refuses private addresses (the
 * hosted hub), discovery, registration and the token request may not reach one either.
 */
import {
  type AuthorizationServerMetadata,
  discoverOAuthServerInfo,
  exchangeAuthorization,
  type OAuthClientInformationMixed,
  OAuthError,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import {
  type FetchLike,
  guardedFetch,
  type PrivateAddresses,
  privateAddressRefusal,
} from '../connectors/guarded-fetch.ts';
import { sha256Hex } from '../digest.ts';
import { HubError, isHubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import type { Clock, Random } from '../ports.ts';
import { grantOf, type OAuthGrant } from '../secrets/oauth-grant.ts';
import type { TakingSecretStore } from '../secrets/secret-store.ts';
import { challengeOf, clientMetadataOf } from './sign-in-client.ts';

/** How long a started sign-in waits for the browser to come back. */
export const SIGN_IN_LIFETIME_MS = 10 * 60_000;
/** Discovery documents, registrations and token responses are small. */
const RESPONSE_BYTES = 64 * 1024;
/** One request of a sign-in may take this long. */
const REQUEST_MS = 20_000;

/** What a sign-in is for: adding the source at its URL, or a connection of a source signing in again. */
export const SignInPurpose = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('add') }),
  z.object({ kind: z.literal('again'), namespace: z.string(), connection: z.string() }),
]);
export type SignInPurpose = z.infer<typeof SignInPurpose>;

/** A started sign-in, as kept (encrypted) in the secret store until its browser comes back. */
const PendingSignIn = z.object({
  who: z.string().min(1),
  purpose: SignInPurpose,
  url: z.string().url(),
  redirectUrl: z.string().url(),
  codeVerifier: z.string().min(1),
  client: z.object({ client_id: z.string().min(1), client_secret: z.string().optional() }),
  metadata: z.object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
    revocation_endpoint: z.string().optional(),
  }),
  resource: z.string().optional(),
  expiresAt: z.number(),
});
type PendingSignIn = z.infer<typeof PendingSignIn>;

const STATE = /^signin_[0-9a-f]{48}$/;

export interface SourceSignInDeps {
  /** Where pending sign-ins wait; absent where the host keeps no secrets (then none can start). */
  secrets?: TakingSecretStore | undefined;
  clock: Clock;
  random: Random;
  privateAddresses?: PrivateAddresses | undefined;
  /** What the hub calls itself on the source's consent page. */
  clientName: string;
  fetch?: FetchLike | undefined;
}

export interface StartSignIn {
  /** The source's MCP endpoint (the protected resource). */
  url: string;
  /** Who is signed in to the hub's pages: only they can finish it. */
  who: string;
  purpose: SignInPurpose;
  /** The hub's own callback, where the browser comes back. */
  redirectUrl: string;
  /** The hub's client ID metadata document (SEP-991), when it has an https URL for one. */
  clientMetadataUrl?: string | undefined;
}

/** What came back to the callback: its query parameters, and who is signed in. */
export interface FinishSignIn {
  state: string | undefined;
  code: string | undefined;
  iss?: string | undefined;
  error?: string | undefined;
  errorDescription?: string | undefined;
  who: string;
}

export interface FinishedSignIn {
  grant: OAuthGrant;
  url: string;
  purpose: SignInPurpose;
}

export class SourceSignIns {
  readonly #deps: SourceSignInDeps;

  constructor(deps: SourceSignInDeps) {
    this.#deps = deps;
  }

  /** Starts a sign-in to the source at `request.url`; resolves with where to send the browser. */
  async start(request: StartSignIn): Promise<string> {
    const secrets = this.#secrets();
    const serverUrl = new URL(request.url);
    const refused = privateAddressRefusal(
      serverUrl,
      this.#deps.privateAddresses,
      'cannot sign in to a source at',
    );
    if (refused) throw refused;
    const what = serverUrl.origin;
    const failure = (error: unknown) => signInFailure(what, error);
    const fetchFn = this.#fetch();
    const resourceMetadataUrl = await challengeOf(serverUrl, this.#deps.clientName, fetchFn);
    const found = await discoverOAuthServerInfo(serverUrl, {
      fetchFn,
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    }).catch((error: unknown) => {
      throw failure(error);
    });
    const metadata = found.authorizationServerMetadata;
    if (!metadata) {
      throw new HubError(
        'unauthorized',
        `${what} publishes no OAuth authorization server the hub can find (RFC 9728, RFC 8414), so the hub cannot sign in to it. Check the address, or ask its operator how to connect.`,
      );
    }
    const client = await this.#client(metadata, request, fetchFn).catch((error: unknown) => {
      throw failure(error);
    });
    const resource = found.resourceMetadata?.resource ? String(found.resourceMetadata.resource) : undefined;
    const scope = found.resourceMetadata?.scopes_supported?.join(' ');
    const state = randomId(this.#deps.random, 'signin', 24);
    const started = await startAuthorization(metadata.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl: request.redirectUrl,
      state,
      ...(scope ? { scope } : {}),
      ...(resource ? { resource } : {}),
    }).catch((error: unknown) => {
      throw failure(error);
    });
    const pending: PendingSignIn = {
      who: request.who,
      purpose: request.purpose,
      url: serverUrl.href,
      redirectUrl: request.redirectUrl,
      codeVerifier: started.codeVerifier,
      client: {
        client_id: client.client_id,
        ...('client_secret' in client && client.client_secret ? { client_secret: client.client_secret } : {}),
      },
      metadata: {
        issuer: metadata.issuer,
        authorization_endpoint: metadata.authorization_endpoint,
        token_endpoint: metadata.token_endpoint,
        ...(metadata.token_endpoint_auth_methods_supported
          ? { token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported }
          : {}),
        ...('revocation_endpoint' in metadata && typeof metadata.revocation_endpoint === 'string'
          ? { revocation_endpoint: metadata.revocation_endpoint }
          : {}),
      },
      ...(resource ? { resource } : {}),
      expiresAt: this.#deps.clock.now() + SIGN_IN_LIFETIME_MS,
    };
    await secrets.set(await pendingKey(state), JSON.stringify(pending));
    return started.authorizationUrl.href;
  }

  /**
   * Finishes the sign-in `state` names, once: refused (nothing redeemed) when no sign-in waits
   * under it (never started, already finished, or on another person's hub), when it expired,
   * when another person started it, or when the authorization server sent an error instead of a
   * code. Else the code is redeemed and the grant returned.
   */
  async finish(answer: FinishSignIn): Promise<FinishedSignIn> {
    const secrets = this.#secrets();
    const state = answer.state ?? '';
    const kept = STATE.test(state) ? await secrets.take(await pendingKey(state)) : undefined;
    const parsed = kept === undefined ? undefined : PendingSignIn.safeParse(safeJson(kept));
    const pending = parsed?.success ? parsed.data : undefined;
    if (!pending || pending.expiresAt <= this.#deps.clock.now() || pending.who !== answer.who) {
      throw new HubError(
        'denied',
        'No sign-in of yours waits for this answer: it was finished already, left longer than 10 minutes, or started by someone else. Nothing was kept; start the sign-in again.',
      );
    }
    const what = new URL(pending.url).origin;
    if (answer.error !== undefined || !answer.code) {
      const why = answer.error
        ? `${answer.error}${answer.errorDescription ? `: ${answer.errorDescription}` : ''}`
        : 'no code came back';
      throw new HubError('denied', `The sign-in to ${what} was not completed (${why}); nothing was kept.`);
    }
    const metadata: AuthorizationServerMetadata = { ...pending.metadata, response_types_supported: ['code'] };
    const tokens = await exchangeAuthorization(metadata.issuer, {
      metadata,
      clientInformation: pending.client,
      authorizationCode: answer.code,
      ...(answer.iss ? { iss: answer.iss } : {}),
      codeVerifier: pending.codeVerifier,
      redirectUri: pending.redirectUrl,
      ...(pending.resource ? { resource: new URL(pending.resource) } : {}),
      fetchFn: this.#fetch(),
    }).catch((error: unknown) => {
      throw signInFailure(what, error);
    });
    const grant = grantOf(
      tokens,
      { metadata: pending.metadata, resource: pending.resource, issuedFor: what, client: pending.client },
      this.#deps.clock.now(),
    );
    return { grant, url: pending.url, purpose: pending.purpose };
  }

  /**
   * Deletes the sign-ins left waiting past their lifetime (the person never came back); returns
   * how many. One that cannot be read any more goes too.
   */
  async sweep(): Promise<number> {
    const secrets = this.#deps.secrets;
    if (!secrets) return 0;
    let swept = 0;
    for (const key of secrets.keysStartingWith(PENDING_PREFIX)) {
      const value = await secrets.get(key).catch(() => undefined);
      const parsed = value === undefined ? undefined : PendingSignIn.safeParse(safeJson(value));
      if (parsed?.success && parsed.data.expiresAt > this.#deps.clock.now()) continue;
      await secrets.delete(key);
      swept++;
    }
    return swept;
  }

  /** The client the hub signs in as: its metadata document, or one registered now for this redirect URI. */
  async #client(
    metadata: AuthorizationServerMetadata,
    request: StartSignIn,
    fetchFn: FetchLike,
  ): Promise<OAuthClientInformationMixed> {
    const documented = (metadata as { client_id_metadata_document_supported?: unknown })
      .client_id_metadata_document_supported;
    if (documented === true && request.clientMetadataUrl?.startsWith('https://'))
      return { client_id: request.clientMetadataUrl };
    if (!metadata.registration_endpoint) {
      throw new HubError(
        'invalid_input',
        `the authorization server of ${new URL(request.url).origin} neither registers clients on its own (no registration endpoint) nor reads a client ID metadata document this hub can offer, so the hub cannot sign in to it`,
      );
    }
    return registerClient(metadata.issuer, {
      metadata,
      clientMetadata: clientMetadataOf(this.#deps.clientName, request.redirectUrl),
      fetchFn,
    });
  }

  #secrets(): TakingSecretStore {
    const secrets = this.#deps.secrets;
    if (!secrets)
      throw new HubError('unavailable', 'this hub keeps no secrets here, so it cannot keep a sign-in');
    return secrets;
  }

  /** Each request to the host it names only, never to a private address where the host refuses them. */
  #fetch(): FetchLike {
    const { privateAddresses, fetch } = this.#deps;
    return (url, init) => {
      const guarded = guardedFetch(
        {
          allowedHosts: [new URL(String(url)).host],
          maxResponseBytes: RESPONSE_BYTES,
          maxRedirects: 0,
          privateAddresses,
        },
        fetch,
      );
      const timeout = AbortSignal.timeout(REQUEST_MS);
      return guarded(url, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    };
  }
}

/**
 * What every pending sign-in's key starts with: lowercase and a colon, which no connection's key
 * (`secretKey`: uppercase, digits and `_`) holds, so a sweep never touches a connection's secret.
 */
const PENDING_PREFIX = 'oauth-sign-in:';

/** The secret store's key of the sign-in `state` started: from its hash, never the state itself. */
async function pendingKey(state: string): Promise<string> {
  return `${PENDING_PREFIX}${(await sha256Hex(state)).slice(0, 40)}`;
}

/** An error met while signing in, as the person should see it. */
function signInFailure(what: string, error: unknown): HubError {
  if (isHubError(error)) return error;
  const message =
    (error instanceof Error ? error.message : String(error)).split('\n', 1)[0]?.slice(0, 200) ?? '';
  if (error instanceof OAuthError) {
    return new HubError(
      'denied',
      `the authorization server of ${what} refused the sign-in (${error.code}: ${message}); start the sign-in again`,
    );
  }
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new HubError(
      'unavailable',
      `could not reach the authorization server of ${what} (${message}); check that it is up, then sign in again`,
    );
  }
  return new HubError(
    'unavailable',
    `the authorization server of ${what} did not answer as OAuth asks (${message}); sign in again, or ask its operator`,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
