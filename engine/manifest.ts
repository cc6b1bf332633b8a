/**
 * Builds a Manifest from a source's `tools/list` answer: each tool gets its address and its
 * contract digest. Tools keep the source's order; a name the source repeats keeps its first
 * occurrence (the later ones could never be addressed unambiguously).
 */
import { toolAddress, toolIdentifiers } from './address.ts';
import type { JsonValue, Manifest, ManifestTool } from './contracts.ts';
import { contractDigest } from './digest.ts';

/** A tool exactly as an MCP server lists it. */
export interface ListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { [key: string]: JsonValue };
  outputSchema?: { [key: string]: JsonValue } | undefined;
  annotations?: { [key: string]: JsonValue } | undefined;
}

export interface ManifestInput {
  namespace: string;
  fetchedAt: number;
  tools: readonly ListedTool[];
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
}

export async function buildManifest(input: ManifestInput): Promise<Manifest> {
  const seen = new Set<string>();
  const unique = input.tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
  const ids = toolIdentifiers(unique.map((tool) => tool.name));
  const tools = await Promise.all(
    unique.map(async (tool): Promise<ManifestTool> => {
      const entry: ManifestTool = {
        address: toolAddress(input.namespace, ids.get(tool.name) ?? tool.name),
        name: tool.name,
        inputSchema: tool.inputSchema,
        contract: await contractDigest(tool),
      };
      if (tool.title !== undefined) entry.title = tool.title;
      if (tool.description !== undefined) entry.description = tool.description;
      if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
      if (tool.annotations !== undefined) entry.annotations = tool.annotations;
      return entry;
    }),
  );
  const manifest: Manifest = { namespace: input.namespace, fetchedAt: input.fetchedAt, tools };
  if (input.server) manifest.server = input.server;
  if (input.instructions !== undefined) manifest.instructions = input.instructions;
  return manifest;
}
