/**
 * What changed between two manifests of one source: tools added, removed, and changed, each
 * change naming the parts of the contract that differ in words a person understands
 * ("description", "input schema", …). Used by `refresh` and by policy's reasons (journey J4).
 */
import { canonicalJson } from '../canonical-json.ts';
import type { Manifest, ManifestTool } from '../contracts/sources.ts';

/** The parts of a tool's contract, as a person reads them. */
export const CONTRACT_PARTS = {
  description: 'description',
  inputSchema: 'input schema',
  outputSchema: 'output schema',
  annotations: 'annotations',
  name: 'name',
  operation: 'method, path or parameters',
} as const;

export type ContractPart = (typeof CONTRACT_PARTS)[keyof typeof CONTRACT_PARTS];

export interface ToolChange {
  address: string;
  parts: ContractPart[];
}

export interface ManifestDiff {
  added: string[];
  removed: string[];
  changed: ToolChange[];
}

/**
 * The parts of the contract in which `before` and `after` differ; empty when digests agree. When
 * the digests differ but every stored part agrees, the change lies where the hub does not show it:
 * past a cut (digests are taken before connectors/declared-limits.ts cuts; the description is the one
 * contract part it cuts), or under a secret scrubbed since; it is named `description`, and asks
 * again either way.
 */
export function changedParts(
  before: Omit<ManifestTool, 'address'>,
  after: Omit<ManifestTool, 'address'>,
): ContractPart[] {
  if (before.contract === after.contract) return [];
  const parts: ContractPart[] = [];
  for (const key of Object.keys(CONTRACT_PARTS) as (keyof typeof CONTRACT_PARTS)[]) {
    if (canonicalJson(before[key] ?? null) !== canonicalJson(after[key] ?? null))
      parts.push(CONTRACT_PARTS[key]);
  }
  if (parts.length === 0) parts.push(CONTRACT_PARTS.description);
  return parts;
}

/** Compares two manifests of the same source by tool address. */
export function diffManifests(before: Manifest | undefined, after: Manifest): ManifestDiff {
  const old = new Map((before?.tools ?? []).map((tool) => [tool.address, tool]));
  const now = new Map(after.tools.map((tool) => [tool.address, tool]));
  const diff: ManifestDiff = { added: [], removed: [], changed: [] };
  for (const [address, tool] of now) {
    const previous = old.get(address);
    if (!previous) diff.added.push(address);
    else {
      const parts = changedParts(previous, tool);
      if (parts.length > 0) diff.changed.push({ address, parts });
    }
  }
  for (const address of old.keys()) if (!now.has(address)) diff.removed.push(address);
  return diff;
}

/** "changed upstream since you approved it: description, input schema" */
export function describeChange(parts: readonly ContractPart[]): string {
  return `changed upstream since you approved it: ${parts.join(', ')}`;
}
