/**
 * A run's open inputs: its pending inputs no decision answers yet, in the order they asked. What
 * `Runs` waits on, what the client prompt asks about and what a person-facing host shows are this
 * one computation.
 */
import type { PendingInput } from '../contracts/runs.ts';
import type { HubStore } from '../ports.ts';

/** The pending inputs of `runId` that no decision answers yet. */
export function openInputs(
  store: Pick<HubStore, 'listDecisions' | 'listPendingInputs'>,
  runId: string,
): PendingInput[] {
  const decided = new Set(store.listDecisions(runId).map((d) => d.pendingId));
  return store.listPendingInputs(runId).filter((p) => !decided.has(p.id));
}
