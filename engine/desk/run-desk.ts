/**
 * What a person-facing host (the CLI's `runs` and `approve`, later the approval page and the
 * dashboard inbox) asks the engine about runs, and the one command it gives: a person's decision,
 * recorded through the person-input module. Running, resuming and cancelling stay with `Runs`.
 * An unknown run is the one `noRun`.
 */

import { openInputs } from '../approvals/open-inputs.ts';
import { type PersonInput, recordPersonDecision } from '../approvals/person-input.ts';
import type { Decision, JournalEntry, PendingInput, Run, RunStatus } from '../contracts/runs.ts';
import { HubError } from '../errors.ts';
import { noRun } from '../not-found.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HostWording } from '../wording.ts';

export interface RunDeskDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
  /** How a person finds what exists, in the host's words (for the not-found errors). */
  wording: HostWording;
}

export class RunDesk {
  readonly #deps: RunDeskDeps;

  constructor(deps: RunDeskDeps) {
    this.#deps = deps;
  }

  /** Runs, newest first; only those in `status` when given; at most `limit` when given. */
  list(status?: RunStatus, limit?: number): Run[] {
    return this.#deps.store.listRuns({
      ...(status === undefined ? {} : { status }),
      ...(limit === undefined ? {} : { limit }),
    });
  }

  /** The run `runId`; throws `noRun` when there is none. */
  get(runId: string): Run {
    const run = this.#deps.store.getRun(runId);
    if (!run) throw noRun(runId, this.#deps.wording);
    return run;
  }

  /** The run's journal, in call order; throws `noRun` when there is no such run. */
  journal(runId: string): JournalEntry[] {
    this.get(runId);
    return this.#deps.store.listJournal(runId);
  }

  /** How many calls the run's journal holds, settled or not, without reading them; throws `noRun`. */
  countCalls(runId: string): number {
    this.get(runId);
    return this.#deps.store.countJournal(runId);
  }

  /**
   * The calls of a waiting run that a person is to decide: its open inputs. Throws `noRun`, or
   * HubError('conflict') when the run is not waiting for a decision.
   */
  openInputs(runId: string): PendingInput[] {
    const run = this.get(runId);
    if (run.status !== 'awaiting_input') {
      throw new HubError('conflict', `run ${runId} is ${run.status} and has no call waiting for a decision`);
    }
    return openInputs(this.#deps.store, runId);
  }

  /**
   * The decided calls of the run, each with the decision that answers it, in the order they
   * asked (what a page shows once a person decided). Throws `noRun` when there is no such run.
   */
  decided(runId: string): Array<{ input: PendingInput; decision: Decision }> {
    return this.asks(runId).flatMap(({ input, decision }) => (decision ? [{ input, decision }] : []));
  }

  /**
   * Every call of the run that asked a person, in the order they asked, each with the decision
   * that answers it when there is one (a run's timeline: where it waited and for how long).
   * Throws `noRun` when there is no such run.
   */
  asks(runId: string): Array<{ input: PendingInput; decision?: Decision }> {
    this.get(runId);
    const { store } = this.#deps;
    const byInput = new Map(store.listDecisions(runId).map((d) => [d.pendingId, d]));
    return store.listPendingInputs(runId).map((input) => {
      const decision = byInput.get(input.id);
      return decision ? { input, decision } : { input };
    });
  }

  /** Records a person's decision on one open input (person-input.ts says when it is refused). */
  decide(input: PersonInput): Decision {
    return recordPersonDecision(this.#deps, input);
  }
}
