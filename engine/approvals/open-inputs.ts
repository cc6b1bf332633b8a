/**
 * A run's open inputs: its pending inputs no person has answered yet, in the order they asked.
 * What `Runs` waits on, what the client prompt asks about and what a person-facing host shows
 * are this one computation. An approval is answered by a decision; a connection (a sign-in that
 * no longer works) is answered once a secret of that connection was entered or signed in again
 * after it asked (its `setAt` moved: `hub auth`, or a refresh another call made).
 */
import { namespaceOf } from '../address.ts';
import type { PendingInput } from '../contracts/runs.ts';
import type { HubStore } from '../ports.ts';

/** The pending inputs of `runId` that no person has answered yet. */
export function openInputs(
  store: Pick<HubStore, 'listDecisions' | 'listPendingInputs' | 'getConnection'>,
  runId: string,
): PendingInput[] {
  const decided = new Set(store.listDecisions(runId).map((d) => d.pendingId));
  return store.listPendingInputs(runId).filter((p) => !decided.has(p.id) && !signedInSince(store, p));
}

/** True when `pending` waits for a connection that was signed in again since it asked. */
function signedInSince(store: Pick<HubStore, 'getConnection'>, pending: PendingInput): boolean {
  if (pending.kind !== 'connection' || pending.connection === null) return false;
  const namespace = namespaceOf(pending.address);
  const connection = store.getConnection(namespace, pending.connection);
  return connection?.secrets.some((ref) => (ref.setAt ?? 0) > pending.createdAt) ?? false;
}
