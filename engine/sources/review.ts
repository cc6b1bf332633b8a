/**
 * The review a person sees when a source is added or its tools change (spec: Quickstart, step 3):
 * each tool in one of three classes with a proposed policy. Read-only → allow; writes (it
 * changes something, or declares nothing about itself) → ask; destructive (it says it deletes
 * or overwrites) → ask, flagged. Accepting pins each tool's contract.
 */

import type { PolicyEffect } from '../contracts/policy.ts';
import type { ManifestTool } from '../contracts/sources.ts';

export type ToolClass = 'read-only' | 'writes' | 'destructive';

export interface ReviewItem {
  address: string;
  tool: ManifestTool;
  class: ToolClass;
  proposed: PolicyEffect;
  why: string;
  /**
   * The tool as the person last approved it, when it changed since (absent for a new tool): what
   * a review screen compares with `tool` to show what changed in its contract.
   */
  approved?: ManifestTool;
}

/** The class of a tool from its annotations; no annotation means it may write. */
export function classify(tool: ManifestTool): ToolClass {
  if (tool.annotations?.readOnlyHint === true) return 'read-only';
  if (tool.annotations?.destructiveHint === true) return 'destructive';
  return 'writes';
}

const WHY: Record<ToolClass, string> = {
  'read-only': 'declares itself read-only',
  writes: 'changes something, or declares nothing about itself',
  destructive: 'says it deletes or overwrites',
};

/** The review of `tool`; `approved` is the tool as last approved, when it changed since. */
export function reviewItem(tool: ManifestTool, approved?: ManifestTool): ReviewItem {
  const toolClass = classify(tool);
  return {
    address: tool.address,
    tool,
    class: toolClass,
    proposed: toolClass === 'read-only' ? 'allow' : 'ask',
    why: WHY[toolClass],
    ...(approved === undefined ? {} : { approved }),
  };
}
