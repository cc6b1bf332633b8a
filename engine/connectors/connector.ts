/**
 * The SourceConnector port: how the engine reaches a source's MCP server. One adapter serves
 * both hosts, McpConnector (engine/connectors/mcp-connector.ts): Streamable HTTP everywhere, and
 * stdio where the host hands it a launcher (the local hub's, local/sources/stdio-launcher.ts).
 * Credentials arrive already resolved, at the moment of the request, and never stay.
 */
import type { SecretRef } from '../contracts/connections.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { Source, ToolOperation } from '../contracts/sources.ts';
import type { DeclaredTool } from './declared-limits.ts';
import type { PrivateAddresses } from './guarded-fetch.ts';
import type { CredentialAsk } from './openapi/security.ts';
import type { McpCallResult } from './tool-result.ts';

/** A tool exactly as its source lists it (one type with what the declared limits read: DeclaredTool). */
export type ListedTool = DeclaredTool;

/**
 * A connection's secrets resolved for one request: env for stdio, headers for HTTP, and query
 * parameters and cookies for an OpenAPI API key.
 */
export interface Credentials {
  /** Identifies the connection (for pooling); never a secret. */
  connection: string | null;
  env: Readonly<Record<string, string>>;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  cookies: Readonly<Record<string, string>>;
  /** The raw secret values, for scrubbing what comes back. */
  secrets: readonly string[];
}

export const NO_CREDENTIALS: Credentials = {
  connection: null,
  env: {},
  headers: {},
  query: {},
  cookies: {},
  secrets: [],
};

/** A secret's value and how it reaches the source. */
export interface DeliveredSecret {
  delivery: SecretRef['delivery'];
  value: string;
}

/**
 * The credentials that deliver `secrets`: an environment variable each, a header with its
 * scheme, a query parameter, a cookie, or an OAuth access token as a bearer.
 */
export function deliver(connection: string | null, secrets: readonly DeliveredSecret[]): Credentials {
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const query: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  for (const { delivery, value } of secrets) {
    if (delivery.kind === 'env') env[delivery.variable] = value;
    else if (delivery.kind === 'oauth') headers.Authorization = `Bearer ${value}`;
    else if (delivery.kind === 'query') query[delivery.name] = value;
    else if (delivery.kind === 'cookie') cookies[delivery.name] = value;
    else headers[delivery.name] = delivery.scheme ? `${delivery.scheme} ${value}` : value;
  }
  return { connection, env, headers, query, cookies, secrets: secrets.map((s) => s.value) };
}

/** A source's `tools/list` answer, every page. */
export interface ListedTools {
  tools: ListedTool[];
  /**
   * An OpenAPI document's first server, resolved against the document's URL (absent when it
   * names none, or none that is an absolute http(s) URL); MCP servers leave it out.
   */
  serverUrl?: string | undefined;
  /** What the hub noticed while reading an OpenAPI document (an operation renamed or left out). */
  notices?: string[] | undefined;
  /** The credentials an OpenAPI document's operations use, for `hub add` to ask for. */
  credentials?: CredentialAsk[] | undefined;
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
}

export interface CallRequest {
  /** The source's own tool name (not the address). */
  name: string;
  /** An OpenAPI tool's binding as stored and reviewed (never re-read from the document). */
  operation?: ToolOperation | undefined;
  /**
   * The tool's input schema as reviewed: an MCP client mirrors the headers a modern server asks
   * for from it, never from a listing the server could change after the review.
   */
  inputSchema?: { [key: string]: JsonValue } | undefined;
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
  /**
   * Calls one tool; an upstream `isError` comes back in the result, and whatever the answer's
   * shape, an answer is returned, never thrown. A failure throws a HubError tagged with what is
   * known of the request (`delivery`, call-delivery.ts); untagged counts as `unknown`.
   */
  callTool(source: Source, credentials: Credentials, request: CallRequest): Promise<McpCallResult>;
  /** Called with a namespace when its server says its tool list changed. */
  onToolsChanged(listener: (namespace: string) => void): void;
  /** What the connector knows of a source's health (for doctor), e.g. the tail of its stderr. */
  health(namespace: string): { running: boolean; restarts: number; stderrTail: string } | undefined;
  /** Stops every server and connection it holds. */
  close(): Promise<void>;
}
