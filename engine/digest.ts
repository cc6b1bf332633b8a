/**
 * SHA-256 digests through WebCrypto (`crypto.subtle`), present in Workers and Node alike,
 * so both runtimes compute the same bytes. Two uses: a tool's contract and a call's arguments.
 */
import { canonicalJson } from './canonical-json.ts';
import { hex } from './hex.ts';

/** Lowercase hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(new Uint8Array(bytes));
}

/** What a tool claims to be, as far as its contract goes (spec: Concepts, Tool contract). */
export interface ToolClaim {
  name: string;
  description?: string | undefined;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  /** An OpenAPI tool's call binding; absent for MCP tools (and then left out of the digest). */
  operation?: unknown;
}

/**
 * The contract digest: SHA-256 over the canonical JSON of the name, description, input and
 * output schemas and annotations. An absent member and an explicit null digest alike; any
 * other change to what the tool claims (an empty `annotations: {}` included) changes the
 * digest. `title` and `_meta` are presentation, not contract, and are left out. An OpenAPI
 * tool's `operation` (method, path, where each argument goes) is contract too: it is digested
 * when present, and only then, so every MCP tool's digest stays what it was.
 */
export function contractDigest(tool: ToolClaim): Promise<string> {
  const claim: { [key: string]: unknown } = {
    name: tool.name,
    description: tool.description ?? null,
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
    annotations: tool.annotations ?? null,
  };
  if (tool.operation !== undefined) claim.operation = tool.operation;
  return sha256Hex(canonicalJson(claim));
}

/** The digest of a call's arguments, checked on replay against the journal. */
export function argsDigest(args: unknown): Promise<string> {
  return sha256Hex(canonicalJson(args ?? null));
}
