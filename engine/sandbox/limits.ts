/**
 * An attempt's limits, as a view of the one limits model (engine/limits.ts): the part of a
 * run's limits the sandbox enforces, lowered by whatever the host asks by the same rule
 * (`lowered`), never raised.
 */

import { DEFAULT_LIMITS, lowered, type RunLimits } from '../limits.ts';
import type { SandboxLimits } from './sandbox.ts';

/** The part of a run's limits that bounds one attempt in the sandbox. */
export function sandboxPart(limits: Readonly<RunLimits>): SandboxLimits {
  return {
    computeMs: limits.computeMs,
    wallMs: limits.wallMs,
    memoryBytes: limits.memoryBytes,
    maxConcurrent: limits.maxConcurrent,
    logBytes: limits.inlineResultBytes,
    resultBytes: limits.resultBytes,
  };
}

/** The defaults' sandbox part lowered by `overrides`, each at most its default. */
export function sandboxLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return lowered(sandboxPart(DEFAULT_LIMITS), overrides);
}
