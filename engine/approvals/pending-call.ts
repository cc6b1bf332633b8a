/**
 * The pending input for one guest call (design: "A run, end to end", step 5): what the call gate
 * records when a call must wait for a person, an approval or a sign-in. The one already waiting
 * for this exact call is reused (an attempt taken over asks at the same place); a new one shows
 * the person the call's address, connection, scrubbed arguments and why it waits, bound to the
 * arguments' digest and the tool's contract, and expires after `approvalTtlMs`.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { PendingInput, Run } from '../contracts/runs.ts';
import type { ManifestTool } from '../contracts/sources.ts';
import { randomId } from '../hex.ts';
import type { RunLimits } from '../limits.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import { firstSentence } from '../search/first-sentence.ts';
import type { SecretScrubbing } from '../secrets/hub-secrets.ts';
import { argsPreview } from './args-preview.ts';
import { type CallShape, showsExactly } from './decision-cover.ts';
import { openInputs } from './open-inputs.ts';

/** What recording a pending input needs (the call gate's dependencies have it all). */
export interface PendingDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
  /** Every secret the hub holds: scrubbed from what a person is shown. */
  scrubbing: SecretScrubbing;
  limits: RunLimits;
}

/** The call that waits, as the guest made it (the call gate's GuestCall is one). */
export interface AskedCall {
  seq: number;
  address: string;
  args: { [key: string]: JsonValue };
}

/**
 * The pending input for this exact call: the one already waiting for it (an attempt taken over
 * asks at the same place), else a new one showing the person its address, connection and
 * arguments, bound to their digest.
 */
export function ensurePending(
  deps: PendingDeps,
  run: Run,
  call: AskedCall,
  shape: CallShape,
  tool: ManifestTool,
  reason: string,
  kind: PendingInput['kind'] = 'approval',
): PendingInput {
  const { store } = deps;
  const existing = openInputs(store, run.id).find((p) => p.kind === kind && showsExactly(p, shape));
  if (existing) return existing;
  const now = deps.clock.now();
  // The guest holds no secret, but it could rebuild one from pieces of scrubbed answers.
  const args = deps.scrubbing.scrubber.value(call.args);
  const pending: PendingInput = {
    id: randomId(deps.random, 'pending', 10),
    runId: run.id,
    seq: call.seq,
    kind,
    address: call.address,
    connection: shape.connection,
    // Scrubbed here too: a secret entered after the tool was listed is in the scrubber now.
    summary: deps.scrubbing.scrubber.text(firstSentence(tool.description) || call.address),
    argsPreview: argsPreview(args),
    args,
    argsDigest: shape.argsDigest,
    contract: shape.contract,
    reason: deps.scrubbing.scrubber.text(reason),
    createdAt: now,
    expiresAt: now + deps.limits.approvalTtlMs,
  };
  store.addPendingInput(pending);
  return pending;
}
