/**
 * The SourceConnector port: how the engine reaches a source's MCP server. One adapter serves
 * both hosts, McpConnector (engine/sources/mcp-connector.ts): Streamable HTTP everywhere, and
 * stdio where the host hands it a launcher (the local hub's, local/sources/stdio-launcher.ts).
 * Credentials arrive already resolved, at the moment of the request, and never stay.
 */
import type { SecretRef } from '../contracts/connections.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { Source } from '../contracts/sources.ts';
import type { ListedTool } from '../manifest.ts';
import type { PrivateAddresses } from './guarded-fetch.ts';
import type { McpCallResult } from './tool-result.ts';

/** A connection's secrets resolved for one request: env for stdio, headers for HTTP. */
export interface Credentials {
  /** Identifies the connection (for pooling); never a secret. */
  connection: string | null;
  env: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
  /** The raw secret values, for scrubbing what comes back. */
  secrets: readonly string[];
}

export const NO_CREDENTIALS: Credentials = { connection: null, env: {}, headers: {}, secrets: [] };

/** A secret's value and how it reaches the source. */
export interface DeliveredSecret {
  delivery: SecretRef['delivery'];
  value: string;
}

/** The credentials that deliver `secrets` (an environment variable each, or a header with its scheme; an OAuth access token as a bearer). */
export function deliver(connection: string | null, secrets: readonly DeliveredSecret[]): Credentials {
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const { delivery, value } of secrets) {
    if (delivery.kind === 'env') env[delivery.variable] = value;
    else if (delivery.kind === 'oauth') headers.Authorization = `Bearer ${value}`;
    else headers[delivery.name] = delivery.scheme ? `${delivery.scheme} ${value}` : value;
  }
  return { connection, env, headers, secrets: secrets.map((s) => s.value) };
}

/** A delivery's name: its environment variable, its header, or `oauth`. */
export function deliveryName(delivery: SecretRef['delivery']): string {
  switch (delivery.kind) {
    case 'env':
      return delivery.variable;
    case 'oauth':
      return 'oauth';
    default:
      return delivery.name;
  }
}

/** A delivery in words for a person: `env VAR`, `header Name (Bearer)`, `OAuth sign-in`. */
export function describeDelivery(delivery: SecretRef['delivery']): string {
  switch (delivery.kind) {
    case 'env':
      return `env ${delivery.variable}`;
    case 'oauth':
      return 'OAuth sign-in';
    default:
      return `header ${delivery.name}${delivery.scheme ? ` (${delivery.scheme})` : ''}`;
  }
}

/** A source's `tools/list` answer, every page. */
export interface ListedTools {
  tools: ListedTool[];
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
}

export interface CallRequest {
  /** The source's own tool name (not the address). */
  name: string;
  args: { [key: string]: JsonValue };
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface SourceConnector {
  /**
   * Whether this connector refuses private, loopback and link-local addresses (the hosted hub),
   * so a source at one is refused when it is added; absent: allowed.
   */
  readonly privateAddresses?: PrivateAddresses;
  /** Lists every tool; throws a HubError that says what happened and what to do. */
  listTools(source: Source, credentials: Credentials): Promise<ListedTools>;
  /** Calls one tool; an upstream `isError` comes back in the result, transport failures throw. */
  callTool(source: Source, credentials: Credentials, request: CallRequest): Promise<McpCallResult>;
  /** Called with a namespace when its server says its tool list changed. */
  onToolsChanged(listener: (namespace: string) => void): void;
  /** What the connector knows of a source's health (for doctor), e.g. the tail of its stderr. */
  health(namespace: string): { running: boolean; restarts: number; stderrTail: string } | undefined;
  /** Stops every server and connection it holds. */
  close(): Promise<void>;
}
