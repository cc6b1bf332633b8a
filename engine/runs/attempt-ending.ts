/**
 * How an attempt ended: the one object Runs keeps per attempt, and the one place a run's final
 * status is written (`recordEnding`).
 *
 * The way back from an attempt has two witnesses. The call gate, from inside a call, may end
 * the attempt (`EndingWitness`: a call waits for a person, the code took another path, the run
 * was cancelled, another attempt holds the run); the sandbox then reports how the guest stopped
 * (`SandboxOutcome`). `AttemptEnding` holds what the gate saw, tells the bridge how to end
 * (`SandboxEnding`), and once the sandbox has answered says how the run ends (`RunEnding`):
 *
 * - busy (another attempt holds the run): nothing is written; the caller is told to ask again;
 * - the guest completed: `completed` with its result;
 * - the gate suspended, the guest stopped for it, and a person's input is still open:
 *   `awaiting_input`;
 * - anything else: `failed`, with the gate's reason first, then the sandbox's, else `internal`.
 *
 * When several calls in flight end the attempt at once, the strongest witness stands: busy, then
 * cancelled, then divergence, then suspend (a call that diverged fails the run even if another
 * call asked a person at the same moment).
 */

import { runErrorCode } from '../contracts/error-codes.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { Run, RunError } from '../contracts/runs.ts';
import { HubError, isHubError } from '../errors.ts';
import type { HubStore, RunUpdate } from '../ports.ts';
import type { SandboxEnding, SandboxOutcome } from '../sandbox/sandbox.ts';
import type { Scrubber } from '../secrets/scrub.ts';

/** Why the call gate ended an attempt from inside a call. */
export type EndingWitness =
  /** A call waits for a person (a pending input is recorded). */
  | { kind: 'suspend' }
  /** The journal holds another call at this seq: the code took another path on resume. */
  | { kind: 'divergence'; message: string }
  /** The run was cancelled while the attempt ran. */
  | { kind: 'cancelled'; message: string }
  /** Another attempt holds the run (it was taken over, or raced this one in the store). */
  | { kind: 'busy' };

/** How the run ends after its attempt; `busy` writes nothing. */
export type RunEnding =
  | { kind: 'busy' }
  | { kind: 'completed'; result: JsonValue }
  | { kind: 'awaiting_input' }
  | { kind: 'failed'; error: RunError };

const RANK: Record<EndingWitness['kind'], number> = { suspend: 0, divergence: 1, cancelled: 2, busy: 3 };

/** One attempt's ending, as the gate and then the sandbox report it. */
export class AttemptEnding {
  readonly #runId: string;
  #witness: EndingWitness | undefined;

  constructor(runId: string) {
    this.#runId = runId;
  }

  /** What the gate saw, if it ended the attempt. */
  get witness(): EndingWitness | undefined {
    return this.#witness;
  }

  /** Records what the gate saw (the strongest witness stands) and answers the bridge with it. */
  witnessed(witness: EndingWitness): SandboxEnding {
    if (!this.#witness || RANK[witness.kind] > RANK[this.#witness.kind]) this.#witness = witness;
    switch (witness.kind) {
      case 'suspend':
        return { kind: 'suspend' };
      case 'divergence':
      case 'cancelled':
        return { kind: 'fail', error: { code: witness.kind, message: witness.message } };
      case 'busy':
        return { kind: 'fail', error: { code: 'busy', message: busyRun(this.#runId).message } };
    }
  }

  /**
   * How the run ends, from the gate's witness and the sandbox's outcome. `openInputs` counts the
   * run's undecided pending inputs; it is read only when the attempt suspended.
   */
  settle(outcome: SandboxOutcome, openInputs: () => number): RunEnding {
    const witness = this.#witness;
    if (witness?.kind === 'busy') return { kind: 'busy' };
    if (outcome.status === 'completed') return { kind: 'completed', result: outcome.result ?? null };
    if (outcome.status === 'suspended' && witness?.kind === 'suspend' && openInputs() > 0) {
      return { kind: 'awaiting_input' };
    }
    if (witness && witness.kind !== 'suspend') {
      return { kind: 'failed', error: { code: witness.kind, message: witness.message } };
    }
    if (!outcome.error) {
      return { kind: 'failed', error: { code: 'internal', message: 'the attempt ended without a result' } };
    }
    const { code, message, hint } = outcome.error;
    return { kind: 'failed', error: { code: runErrorCode(code), message, ...(hint ? { hint } : {}) } };
  }
}

/** The error a caller gets when another attempt is running the run: ask again, nothing failed. */
export function busyRun(runId: string): HubError {
  return new HubError(
    'conflict',
    `run ${runId} is being run by another attempt right now; call execute({ resume: "${runId}" }) again in a few seconds`,
  );
}

/** What recordEnding needs besides the ending. */
export interface EndingRecord {
  store: Pick<HubStore, 'updateRun'>;
  /** The run as its attempt was claimed (running, at `run.attempts`). */
  run: Run;
  /** The attempt's console lines, already scrubbed. */
  logs: string[];
  /** Notices the attempt adds to the run's (each once), e.g. that its logs were cut. */
  notices?: readonly string[];
  now: number;
  scrubber: Scrubber;
}

/**
 * Writes how the attempt ended: the one place a run's final status after an attempt is
 * recorded. Only this attempt's own run is written: a cancel, or a newer attempt, since it began
 * wins. An outcome the store cannot take (a result nested deeper than it can serialize, say)
 * still ends the run, as failed: it never stays `running`.
 */
export function recordEnding(ending: Exclude<RunEnding, { kind: 'busy' }>, at: EndingRecord): void {
  const { store, run, logs, now, scrubber } = at;
  const expected = { status: 'running' as const, attempts: run.attempts };
  const all = [...run.logs, ...logs];
  const added = (at.notices ?? []).filter((notice) => !run.notices.includes(notice));
  const notices = added.length > 0 ? { notices: [...run.notices, ...added] } : {};
  const update: RunUpdate =
    ending.kind === 'completed'
      ? { status: 'completed', result: scrubber.value(ending.result), logs: all, ...notices, updatedAt: now }
      : ending.kind === 'awaiting_input'
        ? { status: 'awaiting_input', logs: all, ...notices, updatedAt: now }
        : { status: 'failed', error: scrubber.value(ending.error), logs: all, ...notices, updatedAt: now };
  try {
    store.updateRun(run.id, update, expected);
  } catch (error) {
    if (isHubError(error, 'conflict')) return;
    const failed: RunUpdate = {
      status: 'failed',
      error: {
        code: 'result',
        message:
          'the hub could not record how this run ended (its result or logs may nest too deeply); return something simpler',
      },
      updatedAt: now,
    };
    try {
      store.updateRun(run.id, failed, expected);
    } catch (again) {
      if (!isHubError(again, 'conflict')) throw again;
    }
  }
}
