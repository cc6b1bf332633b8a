/**
 * The default limits of a run (spec: The MCP surface, "Default limits"). Hosts may lower them
 * but not raise them.
 *
 * `concurrentAttempts` and `attemptQueueMs` are the hub's own (spec: Security, I7 "every channel
 * has a budget"): twenty `execute`s at once once took 1.4 GB, sixty 3.8 GB. Attempts are counted in
 * the store, across every process of a local hub and inside the HubObject alike (runs.ts).
 */
export interface RunLimits {
  /** Size of the code in one `execute`, in UTF-8 bytes. */
  codeBytes: number;
  /** Guest execution time per attempt, paused while tool calls are in flight. */
  computeMs: number;
  /** Ceiling for one attempt, tool calls included. */
  wallMs: number;
  /** Guest heap. */
  memoryBytes: number;
  /** Tool calls per run, all attempts together. */
  maxCalls: number;
  /** Tool calls in flight at once. */
  maxConcurrent: number;
  /** Result and logs returned inline, together. */
  inlineResultBytes: number;
  /** One upstream call. */
  upstreamTimeoutMs: number;
  /** How long a pending approval waits. */
  approvalTtlMs: number;
  /** How long runs and journals are kept. */
  retentionMs: number;
  /**
   * Attempts running at once across the whole hub. Each holds at most a `memoryBytes` guest heap
   * plus its sandbox's own cost (a QuickJS worker thread: 25 to 30 MB measured), so the hub's
   * attempts together stay under concurrentAttempts × (64 + 30) MB, under 400 MB by default:
   * within a 2-core laptop's means, and more than two attempts at once already share its cores
   * (an attempt mostly waits on tool calls, its compute paused).
   */
  concurrentAttempts: number;
  /** How long an attempt waits for a slot before it is told the hub is busy and to retry. */
  attemptQueueMs: number;
}

export const DEFAULT_LIMITS: Readonly<RunLimits> = Object.freeze({
  codeBytes: 64 * 1024,
  computeMs: 10_000,
  wallMs: 90_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 500,
  maxConcurrent: 8,
  inlineResultBytes: 24 * 1024,
  upstreamTimeoutMs: 30_000,
  approvalTtlMs: 24 * 60 * 60 * 1000,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  concurrentAttempts: 4,
  attemptQueueMs: 10_000,
});

/** `overrides` applied to the defaults, never above them. */
export function limitsWithin(overrides: Partial<RunLimits> = {}): RunLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(overrides) as (keyof RunLimits)[]) {
    const value = overrides[key];
    if (value !== undefined) limits[key] = Math.min(value, DEFAULT_LIMITS[key]);
  }
  // A hub that can run no attempt at all is a hub that is always busy.
  limits.concurrentAttempts = Math.max(1, limits.concurrentAttempts);
  return limits;
}
