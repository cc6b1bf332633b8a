/**
 * What a person's decision covers (spec: Security and approvals, "Only a person approves";
 * design: "A run, end to end", step 6; invariants I2 and I3). A decision answers one pending
 * input, and the pending input records what the person was shown: the call's place in the run
 * (seq), its tool address, its connection, the digest of its exact arguments, and the tool's
 * contract (what the tool said it does and takes) at that moment.
 *
 * - `once` and `always` let through the call at that seq only when address, connection,
 *   argument digest and contract all match what was shown (`always` has also pinned a policy
 *   rule, which the policy applies on its own terms: the tool, on that connection, as its
 *   contract was shown).
 * - `deny` refuses that same exact call.
 * - `run` lets through the tool at that address on that connection, as its contract was shown,
 *   for the rest of the run, whatever the arguments.
 * - A call at a decided seq that differs in any of these is not covered: it asks again, and the
 *   new pending input says what changed. Nothing ever runs on a decision about another call, or
 *   about the same tool before it changed upstream.
 *
 * The gate applies a policy `deny` before any of this: a person's decision never lifts one.
 *
 * Pure: no store, no clock. A reviewer can read it in one sitting.
 */
import type { Decision, PendingInput } from '../contracts/runs.ts';

/** A call as the gate sees it, after its connection was resolved and its arguments digested. */
export interface CallShape {
  seq: number;
  address: string;
  connection: string | null;
  argsDigest: string;
  /** The tool's contract digest now. */
  contract: string;
}

/** A pending input with the person's decision on it. */
export interface Decided {
  pending: PendingInput;
  decision: Decision;
}

/** What the person's decisions say about one call. */
export type PersonRuling =
  | { kind: 'allow'; decision: Decision; reason: string }
  | { kind: 'deny'; decision: Decision; reason: string }
  /** No decision covers it; `changed` says how it differs from one decided at the same seq. */
  | { kind: 'none'; changed?: string };

/** True when `pending` showed the person exactly this call. */
export function showsExactly(pending: PendingInput, call: CallShape): boolean {
  return (
    pending.seq === call.seq &&
    pending.address === call.address &&
    pending.connection === call.connection &&
    pending.argsDigest !== null &&
    pending.argsDigest === call.argsDigest &&
    sameContract(pending, call)
  );
}

/** True when the tool is as it was when `pending` asked. */
function sameContract(pending: PendingInput, call: CallShape): boolean {
  return pending.contract !== null && pending.contract === call.contract;
}

/** How `call` differs from what `pending` showed, in words for the person ("other arguments"). */
export function differences(pending: PendingInput, call: CallShape): string[] {
  const what: string[] = [];
  if (pending.address !== call.address) what.push(`it calls ${call.address}, not ${pending.address}`);
  if (pending.connection !== call.connection) {
    what.push(`on connection ${call.connection ?? 'none'}, not ${pending.connection ?? 'none'}`);
  }
  if (pending.argsDigest === null || pending.contract === null) {
    // Asked before the hub kept what it showed: nothing can be matched to it.
    what.push('the earlier request did not record the arguments and tool it showed');
    return what;
  }
  if (pending.argsDigest !== call.argsDigest) what.push('with other arguments');
  if (!sameContract(pending, call)) what.push('the tool changed upstream since');
  return what;
}

/**
 * The ruling of the person's decisions on `call`: a decision on exactly this call first (the
 * latest, should there be several rounds at this seq), then a `run` decision for this tool on
 * this connection, else none (with what changed, when a decision at this seq did not match).
 */
export function personRuling(decided: readonly Decided[], call: CallShape): PersonRuling {
  let changed: string | undefined;
  for (const { pending, decision } of [...decided].reverse()) {
    if (pending.seq !== call.seq) continue;
    if (showsExactly(pending, call)) {
      return decision.choice === 'deny'
        ? { kind: 'deny', decision, reason: 'a person denied this call' }
        : { kind: 'allow', decision, reason: `a person allowed this call (${decision.choice})` };
    }
    changed ??= `it differs from the call a person ${decision.choice === 'deny' ? 'denied' : 'allowed'} at this point of the run: ${differences(pending, call).join(', ')}`;
  }
  for (const { pending, decision } of decided) {
    if (
      decision.choice === 'run' &&
      pending.address === call.address &&
      pending.connection === call.connection &&
      sameContract(pending, call)
    ) {
      return {
        kind: 'allow',
        decision,
        reason: 'a person allowed this tool on this connection for the rest of the run',
      };
    }
  }
  return changed === undefined ? { kind: 'none' } : { kind: 'none', changed };
}
