/**
 * class Upstream: the hub's calls to its sources. It resolves a connection's secrets at the
 * moment of a call (an OAuth connection's access token refreshed first when it is due:
 * oauth-refresh.ts), calls one tool through the host's connector, and hands back the outcome
 * scrubbed of every secret the hub holds. Policy and the journal are the runs' concern; what a
 * person administers (adding, reviewing, refreshing sources, entering secrets) is `Sources`.
 */
import { parseToolAddress } from '../address.ts';
import {
  type Credentials,
  type DeliveredSecret,
  deliver,
  NO_CREDENTIALS,
  type SourceConnector,
} from '../connectors/connector.ts';
import type { FetchLike } from '../connectors/guarded-fetch.ts';
import type { McpCallResult } from '../connectors/tool-result.ts';
import type { Connection, SecretRef } from '../contracts/connections.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { CallOutcome } from '../contracts/runs.ts';
import type { ManifestTool, Source } from '../contracts/sources.ts';
import { HubError, isHubError } from '../errors.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import { grantSecretValues, type OAuthGrant, secretValuesOf } from '../secrets/oauth-grant.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { HostWording } from '../wording.ts';
import { answeredCall, failedCall } from './call-outcome.ts';
import { OAuthRefresher, SignInNeeded } from './oauth-refresh.ts';
import { storedConnection, storedSource } from './stored.ts';

/** The default timeout of one upstream call (`upstreamTimeoutMs`). */
export const UPSTREAM_TIMEOUT_MS = 30_000;

export interface UpstreamDeps {
  store: HubStore;
  connector: SourceConnector;
  /** Absent where the host keeps no secrets (then connections cannot be used). */
  secrets?: SecretStore | undefined;
  clock: Clock;
  /** For the refresh lease's holder id (refresh-lease.ts). */
  random: Random;
  /** Every secret the hub holds, for scrubbing (one per engine). */
  hubSecrets: HubSecrets;
  /** How a person acts, in the host's words (entering a missing secret again). */
  wording: HostWording;
  /** The fetch an OAuth refresh goes through (guarded to the token endpoint); absent: the runtime's. */
  fetch?: FetchLike | undefined;
}

/** How one upstream call is made: on which connection, for how long, with which tool record. */
export interface CallOptions {
  connection?: string | undefined;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The tool as the caller already read it from the store, so it is not read twice. */
  tool?: ManifestTool | undefined;
  /**
   * The tool's source and the call's connection (none: undefined) as the caller read them with
   * the tool (the call gate, in the transaction that recorded the call's start), so they are not
   * read again.
   */
  stored?: { source: Source; connection: Connection | undefined } | undefined;
  /** The connection's credentials as `ready` resolved them before the call's start was recorded. */
  credentials?: Credentials | undefined;
}

export class Upstream {
  readonly #deps: UpstreamDeps;
  /** Refreshes OAuth connections' tokens; made on first use (a hub without secrets has none). */
  #oauth: OAuthRefresher | undefined;

  constructor(deps: UpstreamDeps) {
    this.#deps = deps;
  }

  /**
   * A connection's secrets, resolved now (the default connection when none is named). An OAuth
   * access token that is due is refreshed first; `force` refreshes it anyway (the source
   * answered 401 to it while listing tools).
   */
  async credentials(namespace: string, connectionName?: string, force = false): Promise<Credentials> {
    const source = storedSource(this.#deps.store, namespace, this.#deps.wording);
    return this.#credentials(source, storedConnection(this.#deps.store, namespace, connectionName), force);
  }

  /**
   * Makes a connection ready for a call: an OAuth access token that is due is refreshed now, before
   * the call's start is recorded; throws SignInNeeded when a person must sign in again. The
   * credentials it returns go to `callTool` (CallOptions.credentials), so nothing is refreshed
   * once the start is recorded.
   */
  async ready(namespace: string, connectionName: string): Promise<Credentials> {
    return this.credentials(namespace, connectionName);
  }

  /**
   * Calls one tool upstream on a connection and returns its outcome, scrubbed of every secret
   * the hub holds (not only this connection's: a stdio server's stderr tail, or an upstream that
   * quotes another credential, must not carry one out either). Error messages name the source
   * by its namespace only: they reach the model. The call gate passes the `tool` it read from
   * the store while deciding. Throws only before the request leaves the hub (no such tool, a
   * secret missing); from the send on, every ending is the outcome it returns.
   */
  async callTool(
    address: string,
    args: { [key: string]: JsonValue },
    options: CallOptions = {},
  ): Promise<CallOutcome> {
    const { store, connector, clock, hubSecrets } = this.#deps;
    const parsed = parseToolAddress(address);
    const tool = options.tool?.address === address ? options.tool : parsed && store.getTool(address);
    if (!parsed || !tool) throw new HubError('not_found', `no tool ${address}; find tools with search`);
    const stored = options.stored?.source.namespace === parsed.namespace ? options.stored : undefined;
    const source = stored?.source ?? storedSource(store, parsed.namespace, this.#deps.wording);
    const credentials =
      options.credentials ??
      (await this.#credentials(
        source,
        stored ? stored.connection : storedConnection(store, parsed.namespace, options.connection),
      ));
    await hubSecrets.refresh();
    hubSecrets.learn(credentials.secrets);
    const scrub = hubSecrets.scrubber;
    const started = clock.now();
    let result: McpCallResult;
    try {
      result = await connector.callTool(source, credentials, {
        name: tool.name,
        operation: tool.operation,
        inputSchema: tool.inputSchema,
        args,
        timeoutMs: options.timeoutMs ?? UPSTREAM_TIMEOUT_MS,
        signal: options.signal,
      });
    } catch (error) {
      if (isHubError(error, 'unauthorized')) await this.#refused(source, options.connection, credentials);
      return failedCall(error, tool, clock.now() - started, scrub);
    }
    // An API's 401 is its answer (an OpenAPI source's HTTP status), and says the same of the token.
    if (result.httpStatus === 401) await this.#refused(source, options.connection, credentials);
    return answeredCall(result, tool, clock.now() - started, scrub);
  }

  /** The secrets of `connection` (a connection of `source`, or none), resolved now. */
  async #credentials(
    source: Source,
    connection: Connection | undefined,
    force = false,
  ): Promise<Credentials> {
    const namespace = source.namespace;
    if (!connection) return NO_CREDENTIALS;
    const delivered: DeliveredSecret[] = [];
    const more: string[] = [];
    for (const ref of connection.secrets) {
      const secrets = heldSecrets(this.#deps.secrets);
      const value = await secrets.get(ref.key);
      if (ref.delivery.kind === 'oauth') {
        const grant = await this.#grant(source, connection, ref, secrets, value, force);
        delivered.push({ delivery: ref.delivery, value: grant.access_token });
        more.push(...(value === undefined ? [] : [value]), ...grantSecretValues(grant));
        continue;
      }
      if (value === undefined) {
        throw new HubError(
          'not_found',
          `the secret of connection "${namespace}/${connection.name}" is missing from the secret store. ` +
            this.#deps.wording.enterSecretAgain(namespace, connection.name),
          { detail: `the secret store is ${secrets.where}` },
        );
      }
      delivered.push({ delivery: ref.delivery, value });
    }
    const credentials = deliver(connection.name, delivered);
    return { ...credentials, secrets: [...credentials.secrets, ...more] };
  }

  /**
   * An OAuth connection's grant, refreshed when due. A grant missing from the secret store, or one
   * that cannot be read, is a sign-in that no longer works (SignInNeeded): a call waits for a
   * person instead of failing.
   */
  async #grant(
    source: Source,
    connection: Connection,
    ref: SecretRef,
    secrets: SecretStore,
    value: string | undefined,
    force: boolean,
  ): Promise<OAuthGrant> {
    const { namespace } = source;
    const needed = (why: string) =>
      new SignInNeeded(
        namespace,
        connection.name,
        why,
        this.#deps.wording.signInAgain(namespace, connection.name),
      );
    if (value === undefined) throw needed(`the grant is missing from the secret store (${secrets.where})`);
    // Scrubbed from now on, whether or not the refresh below works.
    this.#deps.hubSecrets.learn(secretValuesOf(value));
    let grant: OAuthGrant;
    try {
      grant = await this.#refresher(secrets).current(connection, ref, value, force);
    } catch (error) {
      if (isHubError(error, 'corrupt')) throw needed('the grant kept for it cannot be read');
      throw error;
    }
    this.#sameOrigin(source, connection.name, grant);
    return grant;
  }

  /**
   * The source answered 401 to a call: an OAuth access token it refused is marked refused on the
   * connection's reference (never in the secret store), so the next call refreshes it first (never this call again: it is not retried).
   */
  async #refused(
    source: Source,
    connectionName: string | undefined,
    credentials: Credentials,
  ): Promise<void> {
    try {
      const connection = storedConnection(this.#deps.store, source.namespace, connectionName);
      const bearer = credentials.headers.Authorization?.replace(/^Bearer /, '');
      if (!connection || !bearer || !this.#deps.secrets) return;
      for (const ref of connection.secrets) {
        if (ref.delivery.kind === 'oauth')
          await this.#refresher(this.#deps.secrets).refused(connection, ref, bearer);
      }
    } catch {
      // The call was sent and answered: its outcome stands. The token is refreshed when it is
      // next due, or refused again.
    }
  }

  /**
   * Credentials go only to the origin they were issued for (I4): a source moved to another
   * origin since its sign-in (a push, an edit) gets no token until a person signs in there.
   */
  #sameOrigin(source: Source, connection: string, grant: OAuthGrant): void {
    const here = source.kind === 'mcp-stdio' ? undefined : new URL(source.url).origin;
    if (grant.issued_for === undefined || here === grant.issued_for) return;
    throw new SignInNeeded(
      source.namespace,
      connection,
      'it was made for another address than the one the source is at now',
      this.#deps.wording.signInAgain(source.namespace, connection),
    );
  }

  #refresher(secrets: SecretStore): OAuthRefresher {
    this.#oauth ??= new OAuthRefresher({
      store: this.#deps.store,
      secrets,
      clock: this.#deps.clock,
      random: this.#deps.random,
      hubSecrets: this.#deps.hubSecrets,
      privateAddresses: this.#deps.connector.privateAddresses,
      signIn: (namespace, connection) => this.#deps.wording.signInAgain(namespace, connection),
      fetch: this.#deps.fetch,
    });
    return this.#oauth;
  }
}

/** The host's secret store; unavailable, saying so, where the host keeps none. */
export function heldSecrets(secrets: SecretStore | undefined): SecretStore {
  if (!secrets)
    throw new HubError('unavailable', 'this hub keeps no secrets here; connections cannot be used');
  return secrets;
}
