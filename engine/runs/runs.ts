/**
 * Runs: `execute` and `resume` (design: "A run, end to end"). A run has an id, a seed and a
 * logical clock origin; each execute or resume is an attempt in the sandbox over the same code,
 * seed and clock, so journaled calls replay and the code takes the same path. Every step is in
 * the store; nothing about a run lives in memory between attempts, so a process can die at any
 * point and another resumes from the journal. A call is never sent twice: the journal's
 * (run, seq) key admits one start per call, across processes. An attempt runs only in one of the
 * hub's attempt slots (attempt-slots.ts), claimed with it in one transaction.
 */
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { Run } from '../contracts/runs.ts';
import { HubError, isHubError } from '../errors.ts';
import { hex, randomId } from '../hex.ts';
import { noRun } from '../not-found.ts';
import { prepareCode } from '../pipeline/index.ts';
import type {
  Clock,
  HubStore,
  Random,
  RunUpdate,
  Sandbox,
  SandboxAnswer,
  SandboxHost,
  SandboxLookup,
} from '../ports.ts';
import { NO_SCRUBBING, type SecretScrubbing } from '../secrets/hub-secrets.ts';
import { ATTEMPT_LEASE_MS, claimSlot, type SlotDeps, slotFreed } from './attempt-slots.ts';
import { type GateDeps, gateCall, type Upstream } from './call-gate.ts';
import { buildEnvelope } from './envelope.ts';
import { limitsWithin, type RunLimits } from './limits.ts';
import { openInputs } from './open-inputs.ts';
import { ReplayPace } from './replay-pace.ts';

export interface RunsDeps {
  store: HubStore;
  sandbox: Sandbox;
  clock: Clock;
  random: Random;
  upstream: Upstream;
  /** `hub.search` / `hub.describe` inside the guest: the same text as the MCP tools. */
  lookup: SandboxHost['lookup'];
  limits?: Partial<RunLimits>;
  /**
   * Every secret the hub holds: a run's result, logs and error are scrubbed before they are
   * stored, and every envelope before it leaves (the guest could rebuild a secret from pieces).
   */
  scrubbing?: SecretScrubbing;
}

/** A live attempt marks its run this often. */
export const HEARTBEAT_MS = 1_000;
export { ATTEMPT_LEASE_MS };
/** When a caller told that a run is running should ask again. */
export const RESUME_RETRY_MS = 5_000;

export class Runs {
  readonly #deps: RunsDeps;
  readonly #limits: RunLimits;
  readonly #scrubbing: SecretScrubbing;

  constructor(deps: RunsDeps) {
    this.#deps = deps;
    this.#limits = limitsWithin(deps.limits);
    this.#scrubbing = deps.scrubbing ?? NO_SCRUBBING;
  }

  /**
   * Runs new code: prepares it, then, once one of the hub's attempt slots is free, creates the run
   * already claimed for its first attempt (nothing is stored if no slot frees in time) and runs it.
   */
  async execute(source: string, profile = 'default'): Promise<ExecuteEnvelope> {
    const { store, clock, random } = this.#deps;
    await this.#scrubbing.refresh();
    const now = clock.now();
    const prepared = prepareCode(source, { codeBytes: this.#limits.codeBytes });
    const run: Run = {
      id: randomId(random, 'run', 10),
      profile,
      status: prepared.ok ? 'running' : 'failed',
      code: prepared.ok ? prepared.code : source,
      seed: hex(random.bytes(16)),
      clockOrigin: now,
      attempts: 0,
      logs: [],
      notices: prepared.notices,
      createdAt: now,
      updatedAt: now,
    };
    if (!prepared.ok) {
      const { code, message, hint } = prepared.error;
      run.error = { code, message, ...(hint ? { hint } : {}) };
      store.createRun(run);
      return this.envelope(run.id);
    }
    const claimed = await claimSlot(
      this.#slots(),
      (at) => {
        const first: Run = { ...run, attempts: 1, updatedAt: at };
        store.createRun(first);
        return first;
      },
      { unchanged: 'nothing was run or kept', retry: 'execute' },
      'new',
    );
    return this.#live(claimed);
  }

  /**
   * Continues a run after a person decided, or after the process running it died. Until every
   * pending call is decided it returns the same pending envelope and runs nothing.
   */
  async resume(runId: string): Promise<ExecuteEnvelope> {
    await this.#scrubbing.refresh();
    const run = this.#run(runId);
    const now = this.#deps.clock.now();
    switch (run.status) {
      case 'completed':
      case 'failed':
      case 'cancelled':
      case 'expired':
        throw new HubError(
          'conflict',
          `run ${runId} is ${run.status}; there is nothing to resume. Run the code again as a new execute.`,
        );
      case 'running':
        // A live attempt beats every few seconds; one not heard from in a lease is presumed dead
        // (its process was killed), and its unsettled calls are in doubt, never sent again.
        if (now - run.updatedAt < ATTEMPT_LEASE_MS) throw this.#busy(run);
        return this.#attempt(run);
      case 'awaiting_input': {
        const open = this.#undecided(runId);
        if (open.some((p) => p.expiresAt <= now)) {
          this.#expire(runId, now);
          return this.envelope(runId);
        }
        if (open.length > 0) return this.envelope(runId);
        return this.#attempt(run);
      }
    }
  }

  /** Cancels a run that has not ended. */
  cancel(runId: string): ExecuteEnvelope {
    const run = this.#run(runId);
    if (
      run.status === 'completed' ||
      run.status === 'failed' ||
      run.status === 'cancelled' ||
      run.status === 'expired'
    ) {
      throw new HubError('conflict', `run ${runId} is already ${run.status}`);
    }
    this.#deps.store.updateRun(runId, { status: 'cancelled', updatedAt: this.#deps.clock.now() });
    return this.envelope(runId);
  }

  /**
   * Housekeeping, run by each host on a timer (the local server) or an alarm (the HubObject):
   * a run waiting on a request that has expired becomes `expired`, a run left behind for a day
   * (decided but never resumed; or running in a process that died) ends, and runs that ended more
   * than `retentionMs` ago are deleted with their journals. Answers when it is next needed: the
   * earliest expiry of a request still open, if any.
   */
  sweep(): { expired: number; pruned: number; nextExpiry: number | undefined } {
    const { store, clock } = this.#deps;
    const now = clock.now();
    let expired = 0;
    let nextExpiry: number | undefined;
    // A run nobody moved on for as long as a request may wait is left behind: a person decided
    // and no one resumed it, or its process died and no one resumed it. It ends, so it is pruned.
    const stale = now - this.#limits.approvalTtlMs;
    for (const run of store.listRuns({ status: 'awaiting_input', limit: 10_000 })) {
      const open = this.#undecided(run.id);
      const overdue = open.some((p) => p.expiresAt <= now);
      if (overdue || (open.length === 0 && run.updatedAt <= stale)) {
        this.#expire(
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
    const pruned = store.pruneRuns(now - this.#limits.retentionMs);
    return { expired, pruned, nextExpiry };
  }

  /** The envelope of a run as the store holds it now, scrubbed of every secret the hub knows. */
  envelope(runId: string): ExecuteEnvelope {
    const run = this.#run(runId);
    return this.#scrubbing.scrubber.value(
      buildEnvelope({
        run,
        journal: this.#deps.store.listJournal(runId),
        pending: this.#undecided(runId),
        inlineResultBytes: this.#limits.inlineResultBytes,
        retryAfterMs: RESUME_RETRY_MS,
      }),
    );
  }

  /** Claims the run's next attempt, in a free slot, and runs it. */
  async #attempt(run: Run): Promise<ExecuteEnvelope> {
    const { store } = this.#deps;
    const current = await claimSlot(
      this.#slots(),
      (at) => {
        try {
          // Claim the attempt only if no one else has since we read the run: one winner.
          return store.updateRun(
            run.id,
            { status: 'running', attempts: run.attempts + 1, updatedAt: at },
            { status: run.status, attempts: run.attempts, updatedAt: run.updatedAt },
          );
        } catch (error) {
          throw isHubError(error, 'conflict') ? this.#busy(run) : error;
        }
      },
      { unchanged: `run ${run.id} is unchanged`, retry: `execute({ resume: "${run.id}" })` },
      'resume',
    );
    return this.#live(current);
  }

  /** Runs the attempt `run` was just claimed for, marking the run every HEARTBEAT_MS meanwhile. */
  async #live(run: Run): Promise<ExecuteEnvelope> {
    const { store, clock } = this.#deps;
    const attempt = run.attempts;
    const beat = setInterval(() => {
      try {
        store.updateRun(run.id, { updatedAt: clock.now() }, { status: 'running', attempts: attempt });
      } catch {
        // Cancelled, or taken over: the attempt's last write will not land either.
      }
    }, HEARTBEAT_MS);
    try {
      return await this.#runAttempt(run);
    } finally {
      clearInterval(beat);
      slotFreed(store);
    }
  }

  #slots(): SlotDeps {
    return { store: this.#deps.store, clock: this.#deps.clock, limits: this.#limits };
  }

  /** Runs the attempt `run` was claimed for (running, at `run.attempts`) and records how it ended. */
  async #runAttempt(run: Run): Promise<ExecuteEnvelope> {
    const { clock, sandbox } = this.#deps;
    const attempt = run.attempts;
    const gate: GateDeps = { ...this.#deps, limits: this.#limits, scrubbing: this.#scrubbing };
    let failure: { code: string; message: string; hint?: string } | undefined;
    const pace = new ReplayPace();
    const host: SandboxHost = {
      call: async (call): Promise<SandboxAnswer> => {
        try {
          const answer = await gateCall(gate, run, call);
          if (answer.kind === 'outcome' && answer.replayed) await pace.wait(answer.outcome.ms);
          if (answer.kind === 'suspend') return answer;
          if (answer.kind === 'divergence') {
            failure = { code: 'divergence', message: answer.message };
            return { kind: 'fail', error: failure };
          }
          if (answer.kind === 'lost') {
            failure = { code: answer.status === 'cancelled' ? 'cancelled' : 'busy', message: answer.message };
            return { kind: 'fail', error: failure };
          }
          return answer.outcome.ok
            ? { kind: 'value', value: answer.outcome.value }
            : { kind: 'error', error: answer.outcome.error };
        } catch (error) {
          if (isHubError(error, 'conflict')) {
            failure = { code: 'busy', message: this.#busy(run).message };
            return { kind: 'fail', error: failure };
          }
          throw error;
        }
      },
      lookup: (request: SandboxLookup) => this.#deps.lookup(request),
    };
    const outcome = await sandbox.run(
      {
        runId: run.id,
        attempt,
        code: run.code,
        namespaces: this.#namespaces(),
        seed: run.seed,
        clockOrigin: run.clockOrigin,
        limits: {
          computeMs: this.#limits.computeMs,
          wallMs: this.#limits.wallMs,
          memoryBytes: this.#limits.memoryBytes,
          maxConcurrent: this.#limits.maxConcurrent,
          logBytes: this.#limits.inlineResultBytes,
        },
      },
      host,
    );
    const now = clock.now();
    // Another process holds this run's attempt; its outcome is the run's. Report, change nothing.
    if (failure?.code === 'busy') throw this.#busy(run);
    const scrub = this.#scrubbing.scrubber;
    const logs = [...run.logs, ...outcome.logs.map(scrub.text)];
    let update: RunUpdate;
    if (outcome.status === 'completed') {
      update = { status: 'completed', result: scrub.value(outcome.result ?? null), logs, updatedAt: now };
    } else if (outcome.status === 'suspended' && !failure && this.#undecided(run.id).length > 0) {
      update = { status: 'awaiting_input', logs, updatedAt: now };
    } else {
      const error: { code: string; message: string; hint?: string } = failure ??
        outcome.error ?? { code: 'internal', message: 'the attempt ended without a result' };
      update = {
        status: 'failed',
        error: scrub.value({
          code: error.code,
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        }),
        logs,
        updatedAt: now,
      };
    }
    this.#record(run, attempt, update);
    return this.envelope(run.id);
  }

  /**
   * Writes how the attempt ended. Only this attempt's own run is written: a cancel, or a newer
   * attempt, since it began wins. An outcome the store cannot take (a result nested deeper than
   * it can serialize, say) still ends the run, as failed: it never stays `running`.
   */
  #record(run: Run, attempt: number, update: RunUpdate): void {
    const expected = { status: 'running' as const, attempts: attempt };
    try {
      this.#deps.store.updateRun(run.id, update, expected);
    } catch (error) {
      if (isHubError(error, 'conflict')) return;
      const failed: RunUpdate = {
        status: 'failed',
        error: {
          code: 'result',
          message:
            'the hub could not record how this run ended (its result or logs may nest too deeply); return something simpler',
        },
        updatedAt: update.updatedAt,
      };
      try {
        this.#deps.store.updateRun(run.id, failed, expected);
      } catch (again) {
        if (!isHubError(again, 'conflict')) throw again;
      }
    }
  }

  #busy(run: Run): HubError {
    return new HubError(
      'conflict',
      `run ${run.id} is being run by another attempt right now; call execute({ resume: "${run.id}" }) again in a few seconds`,
    );
  }

  #expire(runId: string, now: number, message?: string): void {
    this.#deps.store.updateRun(runId, {
      status: 'expired',
      error: {
        code: 'expired',
        message: message ?? `the approval for run ${runId} was not given in time; run the code again`,
      },
      updatedAt: now,
    });
  }

  #namespaces(): Record<string, string[]> {
    const namespaces: Record<string, string[]> = {};
    for (const manifest of this.#deps.store.listManifests()) {
      namespaces[manifest.namespace] = manifest.tools.map((tool) =>
        tool.address.slice(manifest.namespace.length + 1),
      );
    }
    return namespaces;
  }

  #undecided(runId: string) {
    return openInputs(this.#deps.store, runId);
  }

  #run(runId: string): Run {
    const run = this.#deps.store.getRun(runId);
    if (!run) throw noRun(runId);
    return run;
  }
}
