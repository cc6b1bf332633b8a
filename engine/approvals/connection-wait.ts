/**
 * The call gate's step 5 (engine/runs/call-gate.ts): an allowed call on a connection that signs in with OAuth
 * has its connection made ready (the token refreshed when due) before the journal's start is
 * committed. A sign-in that no longer works ends the attempt with a pending input of kind
 * `connection` and journals nothing: the call was never sent, and the run resumed after the
 * person signs in again makes it.
 */
import { parseToolAddress } from '../address.ts';
import type { Credentials } from '../connectors/connector.ts';
import type { Run } from '../contracts/runs.ts';
import type { ManifestTool } from '../contracts/sources.ts';
import { SignInNeeded } from '../sources/oauth-refresh.ts';
import type { CallShape } from './decision-cover.ts';
import { type AskedCall, ensurePending, type PendingDeps } from './pending-call.ts';

/** Makes an OAuth connection ready (the call gate's `ready`); throws SignInNeeded for a person to act. */
export type MakeReady = (namespace: string, connection: string) => Promise<Credentials>;

/** Allowed, on a connection that signs in with OAuth: made ready before the start is recorded. */
export interface Prepare {
  kind: 'prepare';
  tool: ManifestTool;
  connection: string;
  shape: CallShape;
}

/**
 * The connection's credentials, ready for the call; or why a person must sign in again first.
 * Any other failure leaves the credentials to the upstream call, which fails as it would have.
 */
export async function signInWaits(
  deps: { ready?: MakeReady | undefined },
  call: AskedCall,
  connection: string,
): Promise<{ kind: 'ready'; credentials?: Credentials } | { kind: 'waits'; reason: string }> {
  const namespace = parseToolAddress(call.address)?.namespace ?? '';
  try {
    const credentials = await deps.ready?.(namespace, connection);
    return credentials ? { kind: 'ready', credentials } : { kind: 'ready' };
  } catch (error) {
    if (error instanceof SignInNeeded) return { kind: 'waits', reason: error.message };
    return { kind: 'ready' };
  }
}

/**
 * The call waits for a person to sign its connection in again: a pending input of kind
 * `connection` (the one already waiting at this seq, else a new one), and the attempt ends.
 * Nothing is journaled: the call was never sent, and the resumed run makes it. How the attempt
 * ends: `suspend` (it waits), or `busy` when this attempt no longer owns the run or the call.
 */
export function awaitConnection(
  deps: PendingDeps,
  run: Run,
  call: AskedCall,
  step: Prepare,
  reason: string,
): 'busy' | 'suspend' {
  const current = deps.store.getRun(run.id);
  if (current?.status !== 'running' || current.attempts !== run.attempts) return 'busy';
  if (deps.store.getJournalEntry(run.id, call.seq)) return 'busy';
  ensurePending(deps, run, call, step.shape, step.tool, reason, 'connection');
  return 'suspend';
}
