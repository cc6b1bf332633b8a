/**
 * The SourceConnector over the official MCP SDK client (v2, which also talks to 2025-era
 * servers), for both hosts. One session per (source where it is now, connection). HTTP sources go through
 * guardedFetch (allowed hosts, same-origin redirects, a size cap) over Streamable HTTP,
 * falling back to the older SSE transport; where the host refuses private places (the hosted
 * hub), the guard refuses them too. Stdio servers need a host that can spawn processes:
 * the local hub passes a `StdioLauncher`; the Worker has none and refuses stdio sources.
 * A stdio server is spawned lazily on first use with the exact command the person consented to,
 * supervised (a crash is restarted with backoff on the next use, the tail of stderr kept for
 * doctor) and shut down when idle.
 */
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { hasConsent, type Source } from '../contracts/sources.ts';
import { HubError, isHubError, withDelivery } from '../errors.ts';
import type { Clock } from '../ports.ts';
import { systemClock } from '../system.ts';
import type { HostWording } from '../wording.ts';
import { beforeSending, deliveryOf } from './call-delivery.ts';
import type { CallRequest, Credentials, ListedTool, ListedTools, SourceConnector } from './connector.ts';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type FetchLike,
  guardedFetch,
  type PrivateAddresses,
} from './guarded-fetch.ts';
import { type MalformedWatch, malformedError, noteMalformed } from './malformed-answer.ts';
import { explainFailure, where } from './mcp-failure.ts';
import { noteOversized, type OversizeWatch, oversizedError } from './oversized-answer.ts';
import { type StderrLike, type Supervision, Supervisor } from './supervisor.ts';
import type { McpCallResult } from './tool-result.ts';

/** Starts a stdio server: the host's part (the local hub spawns a process). */
export type StdioLauncher = (
  command: readonly [string, ...string[]],
  env: Record<string, string>,
  /** The directory it runs in; absent: the hub process's own. */
  cwd?: string,
) => {
  transport: Transport;
  stderr: StderrLike | null;
  /** Ends the server at once, whatever state it is in (used when it never answered). */
  kill(): void;
};

export interface McpConnectorOptions {
  /** Close a session unused for this long. */
  idleMs?: number;
  /** How long connecting (spawn + initialize) may take. */
  connectTimeoutMs?: number;
  /** How long tools/list may take. */
  listTimeoutMs?: number;
  maxResponseBytes?: number;
  version: string;
  /** How to start stdio servers; absent where the host cannot (the Worker). */
  launchStdio?: StdioLauncher | undefined;
  /** The fetch HTTP sources use underneath the guard (the host's own by default). */
  fetch?: FetchLike | undefined;
  /** Time for the backoff between restarts of a crashed server (the system clock by default). */
  clock?: Clock | undefined;
  /** How a person acts on this host, for the errors a person reads (consent to a command). */
  wording: HostWording;
  /**
   * Whether HTTP sources may reach private, loopback and link-local addresses: `allow` (the
   * default, the local hub) or `refuse` (the hosted hub, unless a development setting allows it).
   */
  privateAddresses?: PrivateAddresses | undefined;
}

/** A live connection; `closing` is set before the hub closes it, so the close is not taken for a crash. */
interface Session extends OversizeWatch, MalformedWatch {
  client: Client;
  idle: ReturnType<typeof setTimeout> | undefined;
}

async function closeSession(session: Session): Promise<void> {
  session.closing = true;
  if (session.idle) clearTimeout(session.idle);
  await session.client.close().catch(() => undefined);
}

export class McpConnector implements SourceConnector {
  readonly #options: Required<
    Omit<McpConnectorOptions, 'launchStdio' | 'fetch' | 'clock' | 'privateAddresses'>
  > &
    Pick<McpConnectorOptions, 'launchStdio' | 'fetch'>;
  readonly privateAddresses: PrivateAddresses;
  readonly #sessions = new Map<string, Promise<Session>>();
  readonly #supervisor: Supervisor;
  readonly #listeners: ((namespace: string) => void)[] = [];

  constructor(options: McpConnectorOptions) {
    const { clock, privateAddresses, ...rest } = options;
    this.privateAddresses = privateAddresses ?? 'allow';
    this.#options = {
      idleMs: 5 * 60_000,
      connectTimeoutMs: 30_000,
      listTimeoutMs: 30_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      ...rest,
    };
    this.#supervisor = new Supervisor(clock ?? systemClock);
  }

  async listTools(source: Source, credentials: Credentials): Promise<ListedTools> {
    const session = await this.#session(source, credentials);
    let tools: ListedTool[];
    try {
      const listed = await session.client.listTools(undefined, { timeout: this.#options.listTimeoutMs });
      // `operation` is the hub's own reading of an OpenAPI document; a server cannot claim one.
      tools = listed.tools.map((tool) => {
        const { operation: _claimed, ...rest } = JSON.parse(JSON.stringify(tool)) as ListedTool;
        return rest;
      });
    } catch (error) {
      throw this.#explain(source, 'answered tools/list with something that is not an MCP tool list', error);
    } finally {
      this.#touch(source, credentials, session);
    }
    const server = session.client.getServerVersion();
    return {
      tools,
      server: server ? { name: server.name, version: server.version } : undefined,
      instructions: session.client.getInstructions(),
    };
  }

  /**
   * Calls one tool. The SDK's own check of the answer against the tool's output schema is off
   * (the tool definition handed to it is the reviewed input schema alone): an answer that breaks
   * the schema is still the answer of a call that was made (call-outcome.ts says so), and a
   * header mismatch is not sent again. A failure is tagged with what is known of the request
   * (call-delivery.ts): a session that could not open never sent it.
   */
  async callTool(source: Source, credentials: Credentials, request: CallRequest): Promise<McpCallResult> {
    let session: Session;
    try {
      session = await this.#session(source, credentials);
    } catch (error) {
      throw beforeSending(error);
    }
    session.inFlight++;
    const malformed = new AbortController();
    session.waiting.add(malformed);
    try {
      const signal = request.signal ? AbortSignal.any([request.signal, malformed.signal]) : malformed.signal;
      const result = await session.client.callTool(
        { name: request.name, arguments: request.args },
        {
          timeout: request.timeoutMs,
          signal,
          toolDefinition: { name: request.name, inputSchema: toolInputSchema(request.inputSchema) },
        },
      );
      this.#supervisor.succeeded(source.namespace);
      // An HTTP answer is the OpenAPI connector's to report, never an MCP server's to claim.
      const {
        httpStatus: _status,
        httpHeaders: _headers,
        httpHint: _hint,
        ...answer
      } = result as McpCallResult;
      return answer;
    } catch (error) {
      const known =
        malformedError(malformed) ??
        oversizedError(
          session,
          { namespace: source.namespace, tool: request.name, where: where(source) },
          error,
        );
      if (known) throw known;
      throw withDelivery(this.#explain(source, `failed on ${request.name}`, error), deliveryOf(error));
    } finally {
      session.waiting.delete(malformed);
      session.inFlight--;
      this.#touch(source, credentials, session);
    }
  }

  onToolsChanged(listener: (namespace: string) => void): void {
    this.#listeners.push(listener);
  }

  health(namespace: string): Supervision | undefined {
    return this.#supervisor.get(namespace);
  }

  async close(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(
      sessions.map(async (pending) => {
        const session = await pending.catch(() => undefined);
        if (session) await closeSession(session);
      }),
    );
  }

  /**
   * A session serves one source where it is now: its namespace, its location (URL and allowed
   * hosts, or command line, directory and environment), the connection and what it sends. A source a push moved
   * elsewhere opens a new session instead of reusing the one to its old place.
   */
  #key(source: Source, credentials: Credentials): string {
    // An HTTP session's guarded fetch fixes the hosts it may reach when it opens: they are part of where it is.
    const where =
      source.kind === 'mcp-stdio'
        ? [source.command, source.cwd ?? null, source.env]
        : [source.url, [...source.allowedHosts].sort()];
    return JSON.stringify([
      source.namespace,
      where,
      credentials.connection,
      credentials.env,
      credentials.headers,
    ]);
  }

  #session(source: Source, credentials: Credentials): Promise<Session> {
    const key = this.#key(source, credentials);
    let pending = this.#sessions.get(key);
    if (!pending) {
      pending = this.#open(source, credentials, key);
      this.#sessions.set(key, pending);
      pending.catch(() => this.#sessions.delete(key));
    }
    return pending;
  }

  async #open(source: Source, credentials: Credentials, key: string): Promise<Session> {
    await this.#supervisor.waitForBackoff(source.namespace);
    const client = new Client(
      { name: 'capabilities', version: this.#options.version },
      {
        listChanged: {
          tools: {
            autoRefresh: false,
            onChanged: () => {
              for (const listener of this.#listeners) listener(source.namespace);
            },
          },
        },
        // The hub fulfils no input request (it declares no elicitation or sampling): a tool that
        // asks for input has answered, and is reported as such (call-delivery.ts), not retried.
        inputRequired: { autoFulfill: false },
      },
    );
    const session: Session = { client, idle: undefined, closing: false, inFlight: 0, waiting: new Set() };
    const pending = this.#sessions.get(key);
    const dropped = () => {
      if (this.#sessions.get(key) === pending) this.#sessions.delete(key);
    };
    try {
      if (source.kind === 'mcp-stdio') await this.#connectStdio(session, source, credentials, dropped);
      else if (source.kind === 'mcp-http') await this.#connectHttp(client, source, credentials);
      else throw new HubError('internal', `"${source.namespace}" is an OpenAPI source, not an MCP server`);
    } catch (error) {
      this.#supervisor.failed(source.namespace);
      await closeSession(session);
      throw this.#explain(source, 'could not be started', error);
    }
    return session;
  }

  async #connectStdio(
    session: Session,
    source: Extract<Source, { kind: 'mcp-stdio' }>,
    credentials: Credentials,
    dropped: () => void,
  ): Promise<void> {
    if (!hasConsent(source)) {
      throw new HubError(
        'denied',
        `the source "${source.namespace}" runs a command you have not consented to. ` +
          `${this.#options.wording.addSourceAgain} to review the command.`,
        { detail: where(source) },
      );
    }
    const launch = this.#options.launchStdio;
    if (!launch) {
      throw new HubError(
        'denied',
        `"${source.namespace}" is a local stdio server, which only a local hub can run. ` +
          'Serve it over Streamable HTTP to use it from the hosted hub.',
      );
    }
    const { transport, stderr, kill } = launch(
      source.command as [string, ...string[]],
      { ...source.env, ...credentials.env },
      source.cwd,
    );
    this.#supervisor.watch(source.namespace, stderr);
    // A message over the read buffer's cap closes the transport: the server did not crash, it
    // answered too much. The close is the hub's, so the source stays healthy.
    // A message that is no JSON-RPC at all fails the one call waiting for it (malformed-answer.ts).
    transport.onerror = (error: Error) => {
      noteOversized(session, error);
      noteMalformed(session, error, source.namespace);
    };
    transport.onclose = () => {
      dropped();
      if (!session.closing) this.#supervisor.exited(source.namespace);
    };
    try {
      await session.client.connect(transport, { timeout: this.#options.connectTimeoutMs });
    } catch (error) {
      // A client that never connected does not close its transport: stop the server here, or a
      // server that hangs would outlive the hub's attempt to start it.
      session.closing = true;
      kill();
      await transport.close().catch(() => undefined);
      throw error;
    }
    this.#supervisor.started(source.namespace);
  }

  async #connectHttp(
    client: Client,
    source: Extract<Source, { kind: 'mcp-http' }>,
    credentials: Credentials,
  ): Promise<void> {
    const fetch = guardedFetch(
      {
        allowedHosts: source.allowedHosts,
        maxResponseBytes: this.#options.maxResponseBytes,
        privateAddresses: this.privateAddresses,
      },
      this.#options.fetch,
    );
    const requestInit: RequestInit = { headers: { ...credentials.headers } };
    const url = new URL(source.url);
    try {
      await client.connect(
        new StreamableHTTPClientTransport(url, { fetch, requestInit, redirectPolicy: 'same-origin' }),
        {
          timeout: this.#options.connectTimeoutMs,
        },
      );
    } catch (error) {
      if (isHubError(error) || !/\b(404|405)\b/.test(String((error as Error).message))) throw error;
      // A 2024-era server: the old HTTP+SSE transport.
      await client.connect(new SSEClientTransport(url, { fetch, requestInit }), {
        timeout: this.#options.connectTimeoutMs,
      });
    }
    this.#supervisor.started(source.namespace);
  }

  #touch(source: Source, credentials: Credentials, session: Session): void {
    if (session.idle) clearTimeout(session.idle);
    session.idle = setTimeout(() => {
      this.#sessions.delete(this.#key(source, credentials));
      void closeSession(session);
    }, this.#options.idleMs);
    (session.idle as { unref?: () => void }).unref?.();
  }

  #explain(source: Source, what: string, error: unknown): HubError {
    return explainFailure(source, what, error, this.#supervisor.get(source.namespace)?.stderrTail);
  }
}

/** The input schema the SDK mirrors `Mcp-Param-*` headers from: the reviewed one, an object. */
function toolInputSchema(schema: CallRequest['inputSchema']): { type: 'object'; [key: string]: unknown } {
  return { ...(schema ?? {}), type: 'object' };
}
