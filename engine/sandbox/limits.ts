/**
 * An attempt's limits: the defaults (engine/ports.ts, from the spec's "Default limits") lowered
 * by whatever the host asks, never raised. A value that is not a positive number is ignored.
 */
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../ports.ts';

/** `overrides` applied to the defaults, each at most its default. */
export function sandboxLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of Object.keys(DEFAULT_SANDBOX_LIMITS) as (keyof SandboxLimits)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && value > 0 && Number.isFinite(value)) {
      limits[key] = Math.min(Math.floor(value), DEFAULT_SANDBOX_LIMITS[key]);
    }
  }
  return limits;
}
