/**
 * The one limits model (spec: The MCP surface, "Default limits"): one table of defaults and one
 * rule, `lowered`, for a host's overrides. A host may lower a limit, never raise it; an override
 * that is not a finite number is ignored, and none goes below its floor (1, or 0 for the queue
 * wait, where 0 means "do not wait"). The sandbox's limits are a view of this table
 * (engine/sandbox/limits.ts).
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
  /** Result and logs returned inline, together; also the console output an attempt keeps. */
  inlineResultBytes: number;
  /** The largest result of an attempt, and the largest arguments of one call, as UTF-8 JSON. */
  resultBytes: number;
  /**
   * The largest result of one tool call, as UTF-8 JSON (or text): a larger one fails
   * `result_too_large`. A result over INLINE_CALL_RESULT_BYTES is kept as a blob and the guest
   * gets a handle (result-handles.ts).
   */
  callResultBytes: number;
  /** What the result blobs of one run may take together, in UTF-8 bytes (I7). */
  runBlobBytes: number;
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
  resultBytes: 1024 * 1024,
  // Under the 16 MB one message from a source may take (DEFAULT_MAX_RESPONSE_BYTES): a result
  // the transports still carry is refused here with its size, not cut off on the way.
  callResultBytes: 8 * 1024 * 1024,
  runBlobBytes: 32 * 1024 * 1024,
  upstreamTimeoutMs: 30_000,
  approvalTtlMs: 24 * 60 * 60 * 1000,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  concurrentAttempts: 4,
  attemptQueueMs: 10_000,
});

/** The least each limit can be lowered to: a hub with no attempt slot is always busy. */
const FLOORS: Readonly<Partial<Record<keyof RunLimits, number>>> = Object.freeze({ attemptQueueMs: 0 });

/**
 * `defaults` lowered by `overrides`, never raised: each override that is a finite number is
 * rounded down and kept between its floor (1 unless `floors` says otherwise) and its default.
 */
export function lowered<T extends { [K in keyof T]: number }>(
  defaults: Readonly<T>,
  overrides: Partial<T> = {},
  floors?: Readonly<Partial<Record<keyof T, number>>>,
): T {
  const limits: T = { ...defaults } as T;
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value: unknown = overrides[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const floor = floors?.[key] ?? 1;
    limits[key] = Math.min(Math.max(Math.floor(value), floor), defaults[key]) as T[keyof T];
  }
  return limits;
}

/** A run's limits: the defaults lowered by what the host asks (`lowered`). */
export function limitsWithin(overrides: Partial<RunLimits> = {}): RunLimits {
  return lowered(DEFAULT_LIMITS, overrides, FLOORS);
}
