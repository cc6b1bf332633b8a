/**
 * Builds a Manifest from a source's `tools/list` answer: each tool gets its address and its
 * contract digest. Tools keep the source's order; a name the source repeats keeps its first
 * occurrence (the later ones could never be addressed unambiguously).
 *
 * What a source may declare is bounded first (connectors/declared-limits.ts): over-long names and
 * oversized schemas leave their tool out, long descriptions are cut, and each of those is a
 * notice. The contract digest is computed over the tool as the source declared it, before any
 * cut, so a change a source hides past a cut still changes the digest and asks a person again;
 * only what is stored and shown is cut.
 */
import { toolAddress, toolIdentifiers } from './address.ts';
/** A tool exactly as its source lists it: the connector port's (connectors/connector.ts). */
import type { ListedTool } from './connectors/connector.ts';
import { DECLARED_LIMITS, type DeclaredLimits, keepDeclared } from './connectors/declared-limits.ts';
import type { Manifest, ManifestTool } from './contracts/sources.ts';
import { contractDigest } from './digest.ts';

export type { ListedTool };

export interface ManifestInput {
  namespace: string;
  fetchedAt: number;
  tools: readonly ListedTool[];
  server?: { name: string; version: string } | undefined;
  instructions?: string | undefined;
}

/** A manifest and what building it cut or left out (one line each, naming the tool). */
export interface BuiltManifest {
  manifest: Manifest;
  notices: string[];
}

/** The manifest of a source's answer within the declared limits, without the notices (for fixtures and benchmarks). */
export async function buildManifest(input: ManifestInput): Promise<Manifest> {
  return (await buildManifestWithNotices(input)).manifest;
}

/** The manifest of a source's answer within `limits`, and a notice for each cut or omission. */
export async function buildManifestWithNotices(
  input: ManifestInput,
  limits: Readonly<DeclaredLimits> = DECLARED_LIMITS,
): Promise<BuiltManifest> {
  const seen = new Set<string>();
  const unique = input.tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
  const kept = keepDeclared({ ...input, tools: unique }, limits);
  const ids = toolIdentifiers(kept.tools.map(({ kept: tool }) => tool.name));
  const tools = await Promise.all(
    kept.tools.map(async ({ declared, kept: tool }): Promise<ManifestTool> => {
      const entry: ManifestTool = {
        address: toolAddress(input.namespace, ids.get(tool.name) ?? tool.name),
        name: tool.name,
        inputSchema: tool.inputSchema,
        contract: await contractDigest(declared),
      };
      if (tool.title !== undefined) entry.title = tool.title;
      if (tool.description !== undefined) entry.description = tool.description;
      if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
      if (tool.annotations !== undefined) entry.annotations = tool.annotations;
      if (tool.operation !== undefined) entry.operation = tool.operation;
      return entry;
    }),
  );
  const manifest: Manifest = { namespace: input.namespace, fetchedAt: input.fetchedAt, tools };
  if (kept.server) manifest.server = kept.server;
  if (kept.instructions !== undefined) manifest.instructions = kept.instructions;
  return { manifest, notices: kept.notices };
}
