/**
 * Refreshing an OAuth connection's access token at the moment of an upstream request, without
 * the person (spec: Concepts, Connection; M2). Runtime-neutral, for both hubs: the SDK's
 * `refreshAuthorization` with a fetch that reaches only the token endpoint recorded at sign-in
 * (through the guarded fetch, so the hosted hub's refusal of private addresses holds here too).
 *
 * A token that has expired, or will within the margin (oauth-grant.ts), is refreshed; concurrent
 * requests on one connection share one refresh, and so do the processes serving one hub (the
 * refresh lease, refresh-lease.ts: one sends the refresh token, the others wait for the grant it
 * writes, since a rotating refresh token is refused once used). A token request ends within
 * TOKEN_REQUEST_MS, before its lease does. The new grant goes back to the secret store and the
 * connection's `setAt` moves, which records that a refresh happened (never the value) and
 * makes every process serving the hub read the new tokens for scrubbing. A refresh that fails
 * (the grant was revoked, the token endpoint is down or answers garbage, no refresh token was
 * given) throws `SignInNeeded`: the person must sign in again; nothing was sent upstream.
 */
import {
  type AuthorizationServerMetadata,
  refreshAuthorization,
  type FetchLike as SdkFetch,
} from '@modelcontextprotocol/client';
import { type FetchLike, guardedFetch, type PrivateAddresses } from '../connectors/guarded-fetch.ts';
import type { Connection, SecretRef } from '../contracts/connections.ts';
import { sha256Hex } from '../digest.ts';
import { HubError } from '../errors.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import {
  grantSecretValues,
  needsRefresh,
  OAuthGrant,
  parseGrant,
  renewedGrant,
} from '../secrets/oauth-grant.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { RefreshLeases } from './refresh-lease.ts';

/** A token response is small; anything larger is not one. */
const TOKEN_RESPONSE_BYTES = 64 * 1024;
/** How long a token request may take, answer included: well within the refresh lease (REFRESH_LEASE_MS). */
const TOKEN_REQUEST_MS = 20_000;

/** The connection's sign-in no longer works: a person must sign in again. Nothing was sent upstream. */
export class SignInNeeded extends HubError {
  readonly namespace: string;
  readonly connection: string;

  constructor(namespace: string, connection: string, why: string, signIn: string) {
    super(
      'unauthorized',
      `the sign-in of connection "${namespace}/${connection}" no longer works (${why}); nothing was sent to the source. A person must sign in again: ${signIn}.`,
    );
    this.namespace = namespace;
    this.connection = connection;
  }
}

export interface OAuthRefreshDeps {
  store: HubStore;
  secrets: SecretStore;
  clock: Clock;
  /** For this refresher's id as the holder of refresh leases. */
  random: Random;
  hubSecrets: HubSecrets;
  /** Where the host refuses private addresses (the hosted hub), the token endpoint may not be one. */
  privateAddresses?: PrivateAddresses | undefined;
  /** How a person signs in again, in the host's words. */
  signIn: (namespace: string, connection: string) => string;
  fetch?: FetchLike | undefined;
}

export class OAuthRefresher {
  readonly #deps: OAuthRefreshDeps;
  /** Refreshes under way, by secret key: concurrent requests share one. */
  readonly #inFlight = new Map<string, Promise<OAuthGrant>>();
  /** The refresh lease: one refresh between the processes serving the hub. */
  readonly #leases: RefreshLeases;

  constructor(deps: OAuthRefreshDeps) {
    this.#deps = deps;
    this.#leases = new RefreshLeases(deps);
  }

  /**
   * The grant to use now: `value` as read when it is still good, else a refreshed one. `force`
   * refreshes a token the clock calls good (the source answered 401 to it).
   */
  async current(connection: Connection, ref: SecretRef, value: string, force = false): Promise<OAuthGrant> {
    const grant = parseGrant(value, `${connection.namespace}/${connection.name}`);
    const refused = ref.refused !== undefined && ref.refused === (await sha256Hex(grant.access_token));
    if (!force && !refused && !needsRefresh(grant, this.#deps.clock.now())) return grant;
    let pending = this.#inFlight.get(ref.key);
    if (!pending) {
      pending = this.#refresh(connection, ref, grant).finally(() => this.#inFlight.delete(ref.key));
      this.#inFlight.set(ref.key, pending);
    }
    return pending;
  }

  /**
   * A refreshed grant, under the refresh lease: while another process holds it, the grant that
   * process writes (when usable) is taken instead, and no token request is sent from here.
   */
  async #refresh(connection: Connection, ref: SecretRef, grant: OAuthGrant): Promise<OAuthGrant> {
    const { namespace, name } = connection;
    const refreshToken = grant.refresh_token;
    if (!refreshToken) {
      throw this.#needed(namespace, name, 'the access token expired and the server gave no refresh token');
    }
    return this.#leases.hold(
      ref.key,
      async () => {
        if (!this.#holds(namespace, name, ref)) {
          throw this.#needed(namespace, name, 'the connection was removed while its token was refreshed');
        }
        return this.#refreshedElsewhere(connection, ref, grant);
      },
      () => this.#refreshHeld(connection, ref, grant, refreshToken),
    );
  }

  /** The refresh itself, with the lease held (or given up waiting for). */
  async #refreshHeld(
    connection: Connection,
    ref: SecretRef,
    grant: OAuthGrant,
    refreshToken: string,
  ): Promise<OAuthGrant> {
    const { namespace, name } = connection;
    const needed = (why: string) => this.#needed(namespace, name, why);
    let tokens: Awaited<ReturnType<typeof refreshAuthorization>>;
    try {
      tokens = await refreshAuthorization(grant.authorization_server, {
        metadata: metadataOf(grant),
        clientInformation: {
          client_id: grant.client_id,
          ...(grant.client_secret ? { client_secret: grant.client_secret } : {}),
        },
        refreshToken,
        ...(grant.resource ? { resource: grant.resource } : {}),
        fetchFn: this.#tokenEndpointOnly(grant),
      });
    } catch (error) {
      // Another process serving this hub may have refreshed first (a rotated refresh token is
      // refused once used): its grant, when it is good, is as good as ours.
      const theirs = await this.#refreshedElsewhere(connection, ref, grant);
      if (theirs) return theirs;
      throw needed(refreshFailure(error, this.#deps.hubSecrets));
    }
    const now = this.#deps.clock.now();
    const renewed = renewedGrant(grant, tokens, now);
    this.#deps.hubSecrets.learn(grantSecretValues(renewed));
    // While the token endpoint answered, a person may have signed in again, removed the source,
    // or another process may have refreshed: the new tokens are written only over the grant they
    // were refreshed from, on a connection that still holds it (a removed one is never recreated).
    if (!this.#holds(namespace, name, ref)) {
      throw needed('the connection was removed while its token was refreshed');
    }
    const stored = await this.#storedGrant(ref);
    if (stored?.access_token !== grant.access_token) {
      if (stored && (await this.#usable(namespace, name, ref, stored))) {
        this.#deps.hubSecrets.learn(grantSecretValues(stored));
        return stored;
      }
      // Neither is kept: the stored grant is not ours to overwrite; this call uses the new token.
      return renewed;
    }
    await this.#deps.secrets.set(ref.key, JSON.stringify(renewed));
    // Read again after the write: the source may have been removed meanwhile, and a removed
    // connection is never recreated (nor its grant left behind in the secret store).
    const current = this.#deps.store.getConnection(namespace, name);
    if (!current?.secrets.some((r) => r.key === ref.key)) {
      await this.#deps.secrets.delete(ref.key).catch(() => undefined);
      throw needed('the connection was removed while its token was refreshed');
    }
    // The fact of the refresh, never the value: the ref's setAt moves (hub-secrets.ts reads it again).
    this.#deps.store.putConnection({
      ...current,
      secrets: current.secrets.map((r) => {
        if (r.key !== ref.key) return r;
        const { refused: _replaced, ...rest } = r;
        return { ...rest, setAt: now };
      }),
    });
    return renewed;
  }

  #needed(namespace: string, name: string, why: string): SignInNeeded {
    return new SignInNeeded(namespace, name, why, this.#deps.signIn(namespace, name));
  }

  /** True while the connection `namespace/name` still holds `ref`. */
  #holds(namespace: string, name: string, ref: SecretRef): boolean {
    return this.#deps.store.getConnection(namespace, name)?.secrets.some((r) => r.key === ref.key) ?? false;
  }

  /**
   * True when `grant` may be sent: the clock calls its token good and the source has not refused
   * that very token (the connection's mark, read now: another process may have set it).
   */
  async #usable(namespace: string, name: string, ref: SecretRef, grant: OAuthGrant): Promise<boolean> {
    if (needsRefresh(grant, this.#deps.clock.now())) return false;
    const marked = this.#deps.store
      .getConnection(namespace, name)
      ?.secrets.find((r) => r.key === ref.key)?.refused;
    return marked === undefined || marked !== (await sha256Hex(grant.access_token));
  }

  /** The grant the secret store holds now under `ref`, or undefined when none or not a grant. */
  async #storedGrant(ref: SecretRef): Promise<OAuthGrant | undefined> {
    const value = await this.#deps.secrets.get(ref.key).catch(() => undefined);
    if (value === undefined) return undefined;
    const parsed = OAuthGrant.safeParse(safeJson(value));
    return parsed.success ? parsed.data : undefined;
  }

  /** The grant another process wrote since `grant` was read, when its token is good; else undefined. */
  async #refreshedElsewhere(
    connection: Connection,
    ref: SecretRef,
    grant: OAuthGrant,
  ): Promise<OAuthGrant | undefined> {
    const stored = await this.#storedGrant(ref);
    if (!stored || stored.access_token === grant.access_token) return undefined;
    if (!(await this.#usable(connection.namespace, connection.name, ref, stored))) return undefined;
    this.#deps.hubSecrets.learn(grantSecretValues(stored));
    return stored;
  }

  /**
   * The source refused the access token (401) although the clock calls it good: the connection's
   * reference records the token's digest (SecretRef.refused), so the next request, in any process,
   * refreshes it first (and, if that fails, waits for a person) instead of sending it again. The
   * secret store is not written: a newer grant there (a sign-in, another process's refresh) must
   * never be overwritten by this mark, and a digest names no newer token.
   */
  async refused(connection: Connection, ref: SecretRef, accessToken: string): Promise<void> {
    const refused = await sha256Hex(accessToken);
    const current = this.#deps.store.getConnection(connection.namespace, connection.name);
    if (!current?.secrets.some((r) => r.key === ref.key)) return;
    this.#deps.store.putConnection({
      ...current,
      secrets: current.secrets.map((r) => (r.key === ref.key ? { ...r, refused } : r)),
    });
  }

  /** A fetch that reaches the grant's token endpoint and nothing else. */
  #tokenEndpointOnly(grant: OAuthGrant): SdkFetch {
    const endpoint = new URL(grant.token_endpoint);
    const guarded = guardedFetch(
      {
        allowedHosts: [endpoint.host],
        maxResponseBytes: TOKEN_RESPONSE_BYTES,
        maxRedirects: 0,
        privateAddresses: this.#deps.privateAddresses,
      },
      this.#deps.fetch,
    );
    return (url, init) => {
      if (new URL(String(url)).href !== endpoint.href) {
        throw new HubError('denied', 'a refresh goes only to the token endpoint recorded at sign-in');
      }
      const timeout = AbortSignal.timeout(TOKEN_REQUEST_MS);
      return guarded(url, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The authorization server's metadata as recorded at sign-in: what a refresh needs of it. */
function metadataOf(grant: OAuthGrant): AuthorizationServerMetadata {
  return {
    issuer: grant.authorization_server,
    token_endpoint: grant.token_endpoint,
    // Not used by a refresh; required by the type.
    authorization_endpoint: grant.token_endpoint,
    response_types_supported: ['code'],
    ...(grant.token_endpoint_auth_methods_supported
      ? { token_endpoint_auth_methods_supported: grant.token_endpoint_auth_methods_supported }
      : {}),
  };
}

/** Why a refresh failed, in a few words for the person, scrubbed of every secret the hub knows. */
function refreshFailure(error: unknown, hubSecrets: HubSecrets): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  let why: string;
  if (code === 'invalid_grant')
    why = 'the authorization server no longer accepts the grant: it was revoked or expired';
  else if (error instanceof Error && error.name === 'TimeoutError')
    why = `the token endpoint did not answer within ${TOKEN_REQUEST_MS / 1000} seconds`;
  else if (error instanceof TypeError) why = `the token endpoint could not be reached: ${message}`;
  else if (error instanceof HubError) why = `the token endpoint: ${message}`;
  else
    why = `the token endpoint answered with no usable token: ${message.split('\n', 1)[0]?.slice(0, 160) ?? ''}`;
  return hubSecrets.scrubber.text(why);
}
