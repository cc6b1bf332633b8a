/**
 * The one module that records a person's decision (spec: Security, "Only a person approves";
 * invariant I2). Its callers are host code that handles a person's input: the CLI's `approve`,
 * the client prompt (client-prompt.ts, only with the signed request state it issued), and later
 * the approval page and the dashboard. No MCP tool, no `execute`/`resume` argument reaches it;
 * test/person-input.test.ts holds that line: nothing else calls `recordDecision`, only those
 * callers import this module, and the MCP surface reaches a decision only through the client
 * prompt the host injects.
 *
 * A decision is accepted once, for that exact pending call, before it expires. `always` also
 * writes a policy rule pinned to the tool's current contract, and records the review.
 */
import { namespaceOf } from '../address.ts';
import type { Decision, DecisionChannel, DecisionChoice, PendingInput } from '../contracts/runs.ts';
import { HubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';

export interface PersonInput {
  pendingId: string;
  choice: DecisionChoice;
  channel: DecisionChannel;
  /** Who decided, as the channel knows them. */
  who: string;
}

/** Records the decision, or throws a HubError that names the run and what state it is in. */
export function recordPersonDecision(
  deps: { store: HubStore; clock: Clock; random: Random },
  input: PersonInput,
): Decision {
  const { store, clock, random } = deps;
  const now = clock.now();
  return store.atomically(() => {
    const pending: PendingInput | undefined = store.getPendingInput(input.pendingId);
    if (!pending) throw new HubError('not_found', `no pending call ${input.pendingId}; nothing was decided`);
    if (pending.kind === 'connection') {
      throw new HubError(
        'conflict',
        `the call ${pending.address} in run ${pending.runId} waits for a sign-in, not a decision; nothing was decided. ${pending.reason}`,
      );
    }
    const run = store.getRun(pending.runId);
    if (run?.status !== 'awaiting_input') {
      throw new HubError(
        'conflict',
        `run ${pending.runId} is ${run ? run.status : 'gone'}, not waiting for a decision; nothing was decided`,
      );
    }
    const earlier = store.getDecision(pending.id);
    if (earlier) {
      throw new HubError(
        'conflict',
        `the call ${pending.address} in run ${pending.runId} was already decided (${earlier.choice}, by ${earlier.channel}); a decision is accepted once`,
      );
    }
    if (now >= pending.expiresAt) {
      throw new HubError(
        'denied',
        `the request for ${pending.address} in run ${pending.runId} expired; run the code again to ask anew`,
      );
    }
    const decision: Decision = {
      id: randomId(random, 'dec', 12),
      pendingId: pending.id,
      runId: pending.runId,
      choice: input.choice,
      channel: input.channel,
      who: input.who,
      at: now,
    };
    store.recordDecision(decision);
    if (input.choice === 'always') pinAlways(store, pending, now, randomId(random, 'rule', 12));
    return decision;
  });
}

/**
 * `always`: a rule allowing this tool on this connection (or, for a call on no connection, on no
 * connection: never every connection), pinned to the contract the person was shown. Refused when
 * the tool changed upstream since the call asked: the person would pin a contract they never saw.
 */
function pinAlways(store: HubStore, pending: PendingInput, now: number, ruleId: string): void {
  const namespace = namespaceOf(pending.address);
  const tool = store.getManifest(namespace)?.tools.find((t) => t.address === pending.address);
  if (!tool)
    throw new HubError(
      'not_found',
      `${pending.address} is no longer offered by its source; nothing was decided`,
    );
  if (pending.contract === null || tool.contract !== pending.contract) {
    throw new HubError(
      'conflict',
      `${pending.address} changed upstream since this call asked, so "always" would allow what you were not shown; nothing was decided. Choose once or deny: once covers only the tool as you were shown it, so the run then asks about it as it is now.`,
    );
  }
  // The rule replaces what it supersedes: an earlier allow/ask on the same tool and the same
  // connection (an earlier `ask` for it, say). A deny is never lifted by a decision on one call.
  for (const rule of store.listPolicyRules()) {
    const same =
      rule.target.kind === 'tool' &&
      rule.target.address === tool.address &&
      // Exactly this connection: a rule for every connection (absent) is not one for none (null).
      rule.connection === pending.connection &&
      rule.effect !== 'deny';
    if (same) store.removePolicyRule(rule.id);
  }
  store.addPolicyRule({
    id: ruleId,
    target: { kind: 'tool', address: tool.address },
    connection: pending.connection,
    effect: 'allow',
    contract: pending.contract,
    createdAt: now,
  });
  store.putReview({ address: tool.address, namespace, contract: tool.contract, tool, reviewedAt: now });
}
