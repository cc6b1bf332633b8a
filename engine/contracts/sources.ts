/**
 * Sources and what they declare: a source (stdio, HTTP, or an OpenAPI document), its manifest of tools, and what a person
 * reviewed of each tool.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { ContractDigest, JsonObject, Namespace, Timestamp, ToolAddress } from './names.ts';

export const SourceKind = z.enum(['mcp-stdio', 'mcp-http', 'openapi']);
export type SourceKind = z.infer<typeof SourceKind>;

const SourceBase = z.object({
  namespace: Namespace,
  addedAt: Timestamp,
  updatedAt: Timestamp,
});

/** A local MCP server launched over stdio. It runs only with consent to its exact command line. */
export const StdioSource = SourceBase.extend({
  kind: z.literal('mcp-stdio'),
  /** argv[0] and the rest, exactly as it will be spawned. */
  command: z.array(z.string().min(1)).min(1),
  /** Non-secret environment; secrets reach the server through a connection. */
  env: z.record(z.string(), z.string()).default({}),
  /** The command line a person consented to, with when; null until they do. */
  consent: z.object({ command: z.array(z.string()), at: Timestamp }).nullable(),
  /**
   * The directory the command runs in: where `hub add` ran, so its relative paths mean what they
   * meant there whichever process starts it later (absent: the starting process's own).
   */
  cwd: z.string().min(1).optional(),
});

/** A remote MCP server over Streamable HTTP (SSE as a fallback). */
export const HttpSource = SourceBase.extend({
  kind: z.literal('mcp-http'),
  url: z.url({ protocol: /^https?$/ }),
  /** Hosts fixed at review; upstream traffic goes nowhere else (invariant I4). */
  allowedHosts: z.array(z.string().min(1)).min(1),
});

/**
 * An HTTP API described by an OpenAPI document (3.0, 3.1, or Swagger 2.0): each operation is a
 * tool, called over plain HTTP at the server chosen when it was added.
 */
export const OpenApiSource = SourceBase.extend({
  kind: z.literal('openapi'),
  /** Where the document is read from: an http(s) URL, or an absolute file path (a local hub only). */
  document: z.string().min(1),
  /** The API's base URL: the document's first `servers` entry, or the one given when it was added. */
  url: z.url({ protocol: /^https?$/ }),
  /** Hosts fixed at review: the server's; calls and their credentials go nowhere else (I4). */
  allowedHosts: z.array(z.string().min(1)).min(1),
});

export const Source = z.discriminatedUnion('kind', [StdioSource, HttpSource, OpenApiSource]);
export type Source = z.infer<typeof Source>;

/** True when a stdio source's consent covers exactly the command it would run. */
export function hasConsent(source: z.infer<typeof StdioSource>): boolean {
  const consent = source.consent;
  return (
    consent !== null &&
    consent.command.length === source.command.length &&
    consent.command.every((part, i) => part === source.command[i])
  );
}

/** MCP tool annotations (hints), as the source sent them. */
export const ToolAnnotations = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** How an array or object parameter is written (OpenAPI `style`, engine/connectors/openapi/parameter-style.ts). */
export const ParameterStyle = z.enum([
  'form',
  'spaceDelimited',
  'pipeDelimited',
  'deepObject',
  'simple',
  'label',
  'matrix',
]);
export type ParameterStyle = z.infer<typeof ParameterStyle>;

/**
 * Where one operation parameter goes in the HTTP request, and which input property holds it.
 * `style` and `explode` only where they differ from the location's default (query and cookie:
 * form, exploded; path and header: simple, not exploded), so a binding that uses the defaults
 * digests as it always did; `mediaType` when the document gives the parameter as `content` (its
 * value is then sent as JSON text).
 */
export const OperationParameter = z.object({
  name: z.string().min(1),
  in: z.enum(['path', 'query', 'header', 'cookie']),
  property: z.string().min(1),
  style: ParameterStyle.optional(),
  explode: z.boolean().optional(),
  mediaType: z.string().min(1).optional(),
});
export type OperationParameter = z.infer<typeof OperationParameter>;

/**
 * How an OpenAPI tool becomes an HTTP request: the method, the path template, and where each
 * input property goes. Part of the contract digest, so a document that moves a tool to another
 * method or path asks the person again.
 */
export const ToolOperation = z.object({
  method: z.enum(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']),
  /** The path template under the server URL, e.g. `/pet/{petId}`. */
  path: z.string().startsWith('/'),
  parameters: z.array(OperationParameter),
  body: z.object({ property: z.string().min(1), mediaType: z.string().min(1) }).optional(),
});
export type ToolOperation = z.infer<typeof ToolOperation>;

/** One tool of a manifest: what the source sent, plus its address and contract digest. */
export const ManifestTool = z.object({
  address: ToolAddress,
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonObject,
  outputSchema: JsonObject.optional(),
  annotations: ToolAnnotations.optional(),
  /** An OpenAPI source's call binding (the hub's own reading of the document; never an MCP server's). */
  operation: ToolOperation.optional(),
  contract: ContractDigest,
});
export type ManifestTool = z.infer<typeof ManifestTool>;

/** A source's tools as last read (`tools/list`, every page). */
export const Manifest = z.object({
  namespace: Namespace,
  fetchedAt: Timestamp,
  server: z.object({ name: z.string(), version: z.string() }).optional(),
  instructions: z.string().optional(),
  tools: z.array(ManifestTool),
});
export type Manifest = z.infer<typeof Manifest>;

/** What a person approved for one tool: its contract then, and the tool as it was. */
export const ToolReview = z.object({
  address: ToolAddress,
  namespace: Namespace,
  contract: ContractDigest,
  tool: ManifestTool,
  reviewedAt: Timestamp,
});
export type ToolReview = z.infer<typeof ToolReview>;
