/**
 * Approvals in the client's own prompt (spec: Approvals over MCP, Security "Only a person
 * approves"; invariant I2). The one way from the MCP surface to the person-input module: the
 * host hands a `ClientPrompt` to the surface (SurfaceDeps.prompt), and the surface never
 * imports this file (test/person-input.test.ts holds both lines).
 *
 * - `ask(runId)` signs a request state for the run's undecided approvals and builds one form
 *   per pending call. It records nothing.
 * - `check(state)` says whether a state would be accepted now; the SDK's requestState hook runs
 *   it before the tool does, so a refused state is a protocol error (-32602). It records nothing.
 * - `answer(state, responses, who)` is the only entry that records: it verifies the signed state
 *   (this hub's key, this hub, not expired), that the run still waits for exactly those calls and
 *   none of them is decided, reads each answer as untrusted input, and records every chosen
 *   decision with channel `client prompt` through `recordPersonDecision`, all in one transaction.
 *   A state is used at most once: its nonce is spent with the answer, even when every form was
 *   declined. Declined, cancelled or malformed answers record nothing and leave the call
 *   waiting for a new prompt (resume asks again with a new state) or the CLI.
 *
 * Every method takes and returns plain data, so the HubObject can expose it over RPC as is.
 */
import { z } from 'zod';
import { openInputs } from '../approvals/open-inputs.ts';
import { recordPersonDecision } from '../approvals/person-input.ts';
import type { PromptOutcome, PromptRequest } from '../contracts/prompt.ts';
import { DecisionChoice, type PendingInput } from '../contracts/runs.ts';
import { HubError } from '../errors.ts';
import { hex } from '../hex.ts';
import { promptForm } from './prompt-form.ts';
import { MAX_PROMPT_CALLS, type PromptClaim, PromptState, type PromptStateDeps } from './prompt-state.ts';

/** How long one prompt's state is accepted (never past its calls' own expiry). */
export const PROMPT_TTL_MS = 60 * 60 * 1000;

/** What a person's answer to one form must be to count: accepted, with one of the four choices. */
const Accepted = z.object({
  action: z.literal('accept'),
  content: z.object({ decision: DecisionChoice }),
});

export type ClientPromptDeps = PromptStateDeps;

export class ClientPrompt {
  readonly #deps: ClientPromptDeps;
  readonly #state: PromptState;

  constructor(deps: ClientPromptDeps) {
    this.#deps = deps;
    this.#state = new PromptState(deps);
  }

  /**
   * One form per undecided approval of a waiting run, with the state that must come back with
   * the answers; undefined when there is nothing a client prompt can decide (the run is not
   * waiting, waits for a connection, or a request has already expired).
   */
  async ask(runId: string): Promise<PromptRequest | undefined> {
    const { store, clock, hubId } = this.#deps;
    const run = store.getRun(runId);
    if (run?.status !== 'awaiting_input') return undefined;
    const open = this.#undecided(runId);
    const now = clock.now();
    if (open.length === 0 || open.some((p) => p.kind !== 'approval' || p.expiresAt <= now)) return undefined;
    const calls = open.slice(0, MAX_PROMPT_CALLS);
    const exp = Math.min(now + PROMPT_TTL_MS, ...calls.map((p) => p.expiresAt));
    const claim: PromptClaim = {
      hub: hubId,
      run: runId,
      calls: calls.map((p) => p.id),
      nonce: this.#state.nonce(),
      exp,
    };
    return { requestState: await this.#state.sign(claim), forms: calls.map(promptForm) };
  }

  /** Throws HubError('denied') when `answer` would refuse this state now. */
  async check(state: string): Promise<void> {
    this.#current(await this.#state.open(state));
  }

  /**
   * Verifies `state` and the person's `responses` (keyed by pending id, as the client sends
   * them), then records each chosen decision once with channel `client prompt`.
   */
  async answer(state: string, responses: Record<string, unknown>, who: string): Promise<PromptOutcome> {
    const claim = await this.#state.open(state);
    const asked = new Set(claim.calls);
    const stray = Object.keys(responses).find((key) => !asked.has(key));
    if (stray !== undefined) {
      throw new HubError(
        'denied',
        `the answer names a call the prompt did not ask about (${stray.slice(0, 60)}); nothing was decided`,
      );
    }
    const by = who.trim().slice(0, 200) || 'an MCP client';
    const decided: string[] = [];
    const undecided: string[] = [];
    this.#deps.store.atomically(() => {
      this.#current(claim);
      // A state is answered once, declined or not: its nonce is spent here, in the same
      // transaction as the decisions (one small hub setting per answered prompt).
      const mark = hex(this.#deps.random.bytes(8));
      if (this.#deps.store.claimSetting(`prompt_nonce:${claim.nonce}`, mark) !== mark) {
        throw new HubError(
          'denied',
          `this request of run ${claim.run} was already answered once; nothing was decided`,
        );
      }
      for (const pendingId of claim.calls) {
        const answer = Accepted.safeParse(responses[pendingId]);
        if (!answer.success) {
          undecided.push(pendingId);
          continue;
        }
        recordPersonDecision(this.#deps, {
          pendingId,
          choice: answer.data.content.decision,
          channel: 'client prompt',
          who: by,
        });
        decided.push(pendingId);
      }
    });
    return { runId: claim.run, decided, undecided };
  }

  /** The claim's run still waits for every call it names, and none is decided. */
  #current(claim: PromptClaim): void {
    const stale = () =>
      new HubError(
        'denied',
        `the answer came for a request of run ${claim.run} that is no longer open (already decided, or the run moved on); nothing was decided. Resume the run to see where it is.`,
      );
    const run = this.#deps.store.getRun(claim.run);
    if (run?.status !== 'awaiting_input') throw stale();
    const open = new Set(this.#undecided(claim.run).map((p) => p.id));
    if (!claim.calls.every((id) => open.has(id))) throw stale();
  }

  #undecided(runId: string): PendingInput[] {
    return openInputs(this.#deps.store, runId);
  }
}
