/**
 * Runs: `execute` and `resume` (design: "A run, end to end"). A run has an id, a seed and a
 * logical clock origin; each execute or resume is an attempt in the sandbox over the same code,
 * seed and clock, so journaled calls replay and the code takes the same path. Every step is in
 * the store; nothing about a run lives in memory between attempts, so a process can die at any
 * point and another resumes from the journal. A call is never sent twice: the journal's
 * (run, seq) key admits one start per call, across processes. An attempt runs only in one of the
 * hub's attempt slots (attempt-slots.ts), claimed with it in one transaction.
 *
 * This file is the attempt's lifecycle: claim, run, record. How an attempt ended is one object,
 * AttemptEnding (attempt-ending.ts), which also writes the run's final status; the sweep of runs
 * left behind is housekeeping.ts.
 */

import { openInputs } from '../approvals/open-inputs.ts';
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { JsonValue } from '../contracts/names.ts';
import type { Run } from '../contracts/runs.ts';
import { HubError, isHubError } from '../errors.ts';
import { hex, randomId } from '../hex.ts';
import { limitsWithin, type RunLimits } from '../limits.ts';
import { emptyHub, noRun } from '../not-found.ts';
import { ONE_CALL_CODE_BYTES, oneCallOf } from '../one-call.ts';
import { prepareCode } from '../pipeline/index.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { ProfileView } from '../profiles/profile-view.ts';
import { sandboxPart } from '../sandbox/limits.ts';
import type {
  HubLookup,
  Sandbox,
  SandboxAnswer,
  SandboxEnding,
  SandboxHost,
  SandboxLookup,
} from '../sandbox/sandbox.ts';
import { NO_SCRUBBING, type SecretScrubbing } from '../secrets/hub-secrets.ts';
import type { HostWording } from '../wording.ts';
import { AttemptEnding, busyRun, recordEnding } from './attempt-ending.ts';
import { ATTEMPT_LEASE_MS, claimSlot, type SlotDeps, slotFreed } from './attempt-slots.ts';
import { type GateDeps, gateCall, type UpstreamCall } from './call-gate.ts';
import { buildEnvelope, logsCutNotice } from './envelope.ts';
import { expireRun, type SweepReport, sweepRuns } from './housekeeping.ts';
import { ReplayPace } from './replay-pace.ts';
import { ReadCache, readResult, resolvedResult } from './result-handles.ts';

export interface RunsDeps {
  store: HubStore;
  sandbox: Sandbox;
  clock: Clock;
  random: Random;
  upstream: UpstreamCall;
  /** Makes an OAuth connection ready before a call on it starts (call-gate.ts). */
  ready?: GateDeps['ready'];
  /** Lists a source's tools again before an attempt's first call to it is decided (call-gate.ts). */
  recheck?: GateDeps['recheck'];
  /** `hub.search` / `hub.describe` inside the guest: the same text as the MCP tools of the run's profile. */
  lookup: (request: HubLookup, profile: string) => ReturnType<SandboxHost['lookup']>;
  /**
   * What the run's profile shows (engine/profiles/), read at each attempt: the sandbox is given
   * only its visible tools, so code calling a hidden one fails as for a tool that does not exist.
   * Absent: every tool.
   */
  view?: (profile: string) => ProfileView;
  limits?: Partial<RunLimits>;
  /**
   * Every secret the hub holds: a run's result, logs and error are scrubbed before they are
   * stored, and every envelope before it leaves (the guest could rebuild a secret from pieces).
   */
  scrubbing?: SecretScrubbing;
  /** How a person acts, in the host's words (deciding, adding a connection, listing runs). */
  wording: HostWording;
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
    // A profile that does not exist (removed since the endpoint started) is refused with how to
    // list them, before anything is stored.
    this.#deps.view?.(profile);
    await this.#scrubbing.refresh();
    const now = clock.now();
    // One-call code (`hub call`, a direct tool) carries its input: it may take what one call's
    // input may (one-call.ts checked it), not only what code a model writes may.
    const codeBytes = oneCallOf(source)
      ? Math.max(ONE_CALL_CODE_BYTES, this.#limits.codeBytes)
      : this.#limits.codeBytes;
    const prepared = prepareCode(source, { codeBytes });
    const run: Run = {
      id: randomId(random, 'run', 10),
      profile,
      status: prepared.ok ? 'running' : 'failed',
      code: prepared.ok ? prepared.code : source,
      seed: hex(random.bytes(16)),
      clockOrigin: now,
      attempts: 0,
      logs: [],
      // A hub with no sources runs the code all the same; the model is told the hub is empty.
      notices:
        store.listSources().length === 0
          ? [...prepared.notices, emptyHub(this.#deps.wording)]
          : prepared.notices,
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
  async resume(runId: string, profile?: string): Promise<ExecuteEnvelope> {
    await this.#scrubbing.refresh();
    const run = this.#run(runId);
    // An endpoint resumes only its own profile's runs: another's is no run of its (a run id must
    // not open what the profile hides, nor the result of a run that read it).
    if (profile !== undefined && run.profile !== profile) throw noRun(runId, this.#deps.wording);
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
        if (now - run.updatedAt < ATTEMPT_LEASE_MS) throw busyRun(run.id);
        return this.#attempt(run);
      case 'awaiting_input': {
        const open = this.#undecided(runId);
        if (open.some((p) => p.expiresAt <= now)) {
          expireRun(this.#deps.store, runId, now);
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

  /** Housekeeping (housekeeping.ts): expires, ends and prunes runs; says when it is next needed. */
  sweep(): SweepReport {
    const { store, clock } = this.#deps;
    return sweepRuns({ store, clock, limits: this.#limits, openInputs: (runId) => this.#undecided(runId) });
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
        wording: this.#deps.wording,
      }),
    );
  }

  /**
   * The value the run returned, whole and scrubbed, for its caller to answer with rather than the
   * envelope's cut to the inline budget (a direct tool, direct-tools.ts): a large result the run
   * returned as its own handle is read back from its blob. Undefined when it returned nothing.
   */
  result(runId: string): JsonValue | undefined {
    const run = this.#run(runId);
    const value = resolvedResult(this.#deps.store, runId, run.result);
    return value === undefined ? undefined : this.#scrubbing.scrubber.value(value);
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
          throw isHubError(error, 'conflict') ? busyRun(run.id) : error;
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

  /**
   * Runs the attempt `run` was claimed for (running, at `run.attempts`) and records how it ended.
   * The way back is one object: the gate's answer goes to the guest, or ends the attempt in the
   * attempt's AttemptEnding, which with the sandbox's outcome says how the run ends.
   */
  async #runAttempt(run: Run): Promise<ExecuteEnvelope> {
    const { clock, sandbox, store } = this.#deps;
    const namespaces = this.#profileNamespaces(run);
    if (!namespaces) return this.envelope(run.id);
    const gate: GateDeps = {
      ...this.#deps,
      limits: this.#limits,
      scrubbing: this.#scrubbing,
      listed: new Set(),
    };
    const ending = new AttemptEnding(run.id);
    const pace = new ReplayPace();
    const reads = new ReadCache();
    const host: SandboxHost = {
      call: async (call): Promise<SandboxAnswer> => {
        const answer = await gateCall(gate, run, call);
        if (answer.kind === 'end') return ending.witnessed(answer.ending);
        if (answer.replayed) await pace.wait(answer.outcome.ms);
        // The outcome's record goes with the answer: the bridge commits it before the guest's
        // next request is read, while the guest reads this answer where its driver allows.
        const { record } = answer;
        const commit = record ? { commit: () => recorded(record, ending) } : {};
        return answer.outcome.ok
          ? {
              kind: 'value',
              value: answer.outcome.value,
              ...(answer.outcome.response ? { response: answer.outcome.response } : {}),
              ...commit,
            }
          : { kind: 'error', error: answer.outcome.error, ...commit };
      },
      // `hub.read` reads a large result of this run (result-handles.ts); the rest are the hub's.
      lookup: async (request: SandboxLookup) =>
        request.kind === 'read'
          ? readResult(store, run.id, request, reads)
          : this.#deps.lookup(request, run.profile),
    };
    const outcome = await sandbox.run(
      {
        runId: run.id,
        attempt: run.attempts,
        code: run.code,
        namespaces,
        seed: run.seed,
        clockOrigin: run.clockOrigin,
        limits: sandboxPart(this.#limits),
      },
      host,
    );
    const now = clock.now();
    const ended = ending.settle(outcome, () => this.#undecided(run.id).length);
    // Another process holds this run's attempt; its outcome is the run's. Report, change nothing.
    if (ended.kind === 'busy') throw busyRun(run.id);
    const scrubber = this.#scrubbing.scrubber;
    const logs = outcome.logs.map(scrubber.text);
    // The sandbox kept what fit in the attempt's log budget and dropped the rest: a notice says
    // so (outside the log budget, which the kept lines fill) and marks the envelope's logs cut.
    const notices = outcome.logsTruncated ? [logsCutNotice(sandboxPart(this.#limits).logBytes)] : [];
    recordEnding(ended, { store, run, logs, notices, now, scrubber });
    return this.envelope(run.id);
  }

  /**
   * The namespaces the run's profile shows; undefined when the profile was removed since the run
   * started, after ending the run `failed` with why and what to do (never left `running`).
   */
  #profileNamespaces(run: Run): Record<string, string[]> | undefined {
    try {
      return this.#namespaces(run.profile);
    } catch (error) {
      if (!isHubError(error, 'not_found')) throw error;
      const message = `run ${run.id} ran in profile ${run.profile}, which no longer exists, so nothing more of it runs; ${error.message}`;
      this.#deps.store.updateRun(run.id, {
        status: 'failed',
        error: {
          code: 'not_found',
          message,
          hint: 'Run the code again from an endpoint of a profile that exists (a new run).',
        },
        updatedAt: this.#deps.clock.now(),
      });
      return undefined;
    }
  }

  #namespaces(profile: string): Record<string, string[]> {
    const namespaces: Record<string, string[]> = {};
    const manifests = this.#deps.store.listManifests();
    for (const manifest of this.#deps.view ? this.#deps.view(profile).manifests(manifests) : manifests) {
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
    if (!run) throw noRun(runId, this.#deps.wording);
    return run;
  }
}

/**
 * Records a call's outcome in the journal (GateAnswer.record). A conflict means another attempt
 * holds the run (as in the gate itself): this one ends busy.
 */
function recorded(record: () => void, ending: AttemptEnding): SandboxEnding | undefined {
  try {
    record();
    return undefined;
  } catch (error) {
    if (isHubError(error, 'conflict')) return ending.witnessed({ kind: 'busy' });
    throw error;
  }
}
