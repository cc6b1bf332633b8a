/**
 * Housekeeping of runs (the sweep), run by each host on a timer (the local server) or an alarm
 * (the HubObject), apart from any attempt:
 *
 * - a run waiting on a request that has expired becomes `expired`;
 * - a run left behind for as long as a request may wait (`approvalTtlMs`) ends: decided but never
 *   resumed becomes `expired`, running in a process that died and never taken over `failed`
 *   (`abandoned`), so it can be pruned;
 * - runs that ended more than `retentionMs` ago are deleted with their journals.
 *
 * It answers when it is next needed: the earliest expiry of a request still open, if any.
 */
import type { PendingInput } from '../contracts/runs.ts';
import { isHubError } from '../errors.ts';
import type { RunLimits } from '../limits.ts';
import type { Clock, HubStore } from '../ports.ts';

/** What one sweep did, and when the next is needed. */
export interface SweepReport {
  /** Runs it ended (expired, or failed as abandoned). */
  expired: number;
  /** Ended runs it deleted with their journals. */
  pruned: number;
  /** The earliest expiry of a request still open, if any. */
  nextExpiry: number | undefined;
}

export interface HousekeepingDeps {
  store: HubStore;
  clock: Clock;
  limits: Pick<RunLimits, 'approvalTtlMs' | 'retentionMs'>;
  /** A run's pending inputs no person has decided yet. */
  openInputs: (runId: string) => PendingInput[];
}

/** One sweep over the hub's runs. */
export function sweepRuns(deps: HousekeepingDeps): SweepReport {
  const { store, clock, limits } = deps;
  const now = clock.now();
  let expired = 0;
  let nextExpiry: number | undefined;
  // A run nobody moved on for as long as a request may wait is left behind: a person decided
  // and no one resumed it, or its process died and no one resumed it. It ends, so it is pruned.
  const stale = now - limits.approvalTtlMs;
  for (const run of store.listRuns({ status: 'awaiting_input', limit: 10_000 })) {
    const open = deps.openInputs(run.id);
    const overdue = open.some((p) => p.expiresAt <= now);
    if (overdue || (open.length === 0 && run.updatedAt <= stale)) {
      expireRun(
        store,
        run.id,
        now,
        overdue
          ? undefined
          : `run ${run.id} was decided but no one resumed it within a day; run the code again`,
      );
      expired++;
      continue;
    }
    for (const pending of open) nextExpiry = Math.min(nextExpiry ?? pending.expiresAt, pending.expiresAt);
  }
  for (const run of store.listRuns({ status: 'running', limit: 10_000 })) {
    if (run.updatedAt > stale) continue;
    try {
      store.updateRun(
        run.id,
        {
          status: 'failed',
          error: {
            code: 'abandoned',
            message: `run ${run.id} stopped when the process running it died, and no one resumed it; run the code again`,
          },
          updatedAt: now,
        },
        { status: 'running', attempts: run.attempts, updatedAt: run.updatedAt },
      );
      expired++;
    } catch (error) {
      if (!isHubError(error, 'conflict')) throw error;
    }
  }
  const pruned = store.pruneRuns(now - limits.retentionMs);
  return { expired, pruned, nextExpiry };
}

/** Ends a run whose request was not answered in time (or that was left behind, per `message`). */
export function expireRun(store: HubStore, runId: string, now: number, message?: string): void {
  store.updateRun(runId, {
    status: 'expired',
    error: {
      code: 'expired',
      message: message ?? `the approval for run ${runId} was not given in time; run the code again`,
    },
    updatedAt: now,
  });
}
