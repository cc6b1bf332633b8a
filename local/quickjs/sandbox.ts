/**
 * QuickJsSandbox: the local hub's Sandbox (engine/ports.ts). Each attempt runs in QuickJS
 * (WebAssembly, the sync build with a promise bridge) in a worker thread from a warm pool
 * (pool.ts); this side of the thread owns everything the guest must not decide:
 *
 * - the bridge: calls and lookups pass the HostBridge (numbering, `maxConcurrent`, checks); answers
 *   ready in the same microtask checkpoint go back to the worker in one message, and what the host
 *   left to do for them (the journal's record of their outcomes) runs right after it is posted,
 *   while the worker runs the guest on, before this thread reads anything the guest sends next;
 * - the wall clock: at `wallMs` the worker is terminated, whatever it is doing;
 * - the log budget (LogSink) and the result's size (outcomeFromReport);
 * - the worker's fate: after a compute, memory or stack limit, a crash or a failed cleanup it is
 *   terminated and replaced; otherwise it goes back to the pool.
 *
 * `run` never throws; every failure is an outcome, and the next attempt gets a healthy worker.
 */

import { DEFAULT_LIMITS } from '../../engine/limits.ts';
import {
  type AttemptTally,
  computeLimit,
  endedByHost,
  failedOutcome,
  guestErrorOutcome,
  memoryLimit,
  outcomeFromReport,
  wallLimit,
} from '../../engine/sandbox/guest-report.ts';
import { HostBridge } from '../../engine/sandbox/host-bridge.ts';
import { sandboxLimits } from '../../engine/sandbox/limits.ts';
import { LogSink } from '../../engine/sandbox/log-sink.ts';
import { preludeConfig } from '../../engine/sandbox/protocol.ts';
import type {
  Sandbox,
  SandboxAttempt,
  SandboxEnding,
  SandboxHost,
  SandboxLimits,
  SandboxOutcome,
} from '../../engine/sandbox/sandbox.ts';
import { encodeAnswers } from './fields.ts';
import { readRequests } from './outbox.ts';
import { type QuickJsPool as Pool, QuickJsPool, type QuickJsWorker } from './pool.ts';
import type { FromWorker, GuestRequest, WorkerEnding } from './protocol.ts';

/** QuickJS needs 16 MB to start; a smaller heap is raised to this. */
const MIN_MEMORY_BYTES = 16 * 1024 * 1024;
/** How long a worker gets to clean up after the host ended its attempt. */
const STOP_MS = 1_000;

export interface QuickJsSandboxOptions {
  /** Warm workers kept per heap size (default 2). */
  poolSize?: number;
  /** Start the warm workers now rather than at the first attempt (default true). */
  prewarm?: boolean;
  /**
   * Worker threads alive at once, busy and warm together (default: the hub's attempt cap,
   * `concurrentAttempts`, which already bounds this process's attempts; extra ones wait).
   */
  maxWorkers?: number;
}

export class QuickJsSandbox implements Sandbox {
  readonly #pool: Pool;

  constructor(options: QuickJsSandboxOptions = {}) {
    this.#pool = new QuickJsPool(
      options.poolSize ?? 2,
      options.maxWorkers ?? DEFAULT_LIMITS.concurrentAttempts,
    );
    if (options.prewarm ?? true) this.#pool.warm(memoryFor(sandboxLimits()));
  }

  async run(attempt: SandboxAttempt, host: SandboxHost): Promise<SandboxOutcome> {
    const limits = sandboxLimits(attempt.limits);
    const tally: AttemptTally = { logs: new LogSink(limits.logBytes), calls: 0 };
    try {
      const bridge = new HostBridge(host, {
        maxConcurrent: limits.maxConcurrent,
        addresses: addressesOf(attempt.namespaces),
        resultBytes: limits.resultBytes,
        commitsAfterAnswers: true,
      });
      const worker = await this.#pool.acquire(memoryFor(limits));
      return await new AttemptRun(this.#pool, worker, bridge, tally, limits).run(attempt);
    } catch (error) {
      return failedOutcome(tally, {
        code: 'sandbox_failed',
        message: `The sandbox failed before the code could finish: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  /** Worker threads started so far: a replaced worker shows here. */
  get threadsStarted(): number {
    return this.#pool.started;
  }

  /** Worker threads alive now, busy and warm. */
  get threadsAlive(): number {
    return this.#pool.alive;
  }

  async close(): Promise<void> {
    this.#pool.close();
  }
}

/** One attempt on one leased worker. */
class AttemptRun {
  readonly #pool: Pool;
  readonly #worker: QuickJsWorker;
  readonly #bridge: HostBridge;
  readonly #tally: AttemptTally;
  readonly #limits: SandboxLimits;
  #settle: (outcome: SandboxOutcome) => void = () => {};
  #over = false;
  /** Set as soon as the host ends the attempt: from then on the guest's own ending is moot. */
  #hostEnding: SandboxEnding | undefined;
  #deadline = 0;
  #wall: NodeJS.Timeout | undefined;
  /** Answers waiting for this microtask checkpoint to end, to leave in one message. */
  #answerIds: number[] = [];
  #answerTexts: string[] = [];

  constructor(
    pool: Pool,
    worker: QuickJsWorker,
    bridge: HostBridge,
    tally: AttemptTally,
    limits: SandboxLimits,
  ) {
    this.#pool = pool;
    this.#worker = worker;
    this.#bridge = bridge;
    this.#tally = tally;
    this.#limits = limits;
  }

  run(attempt: SandboxAttempt): Promise<SandboxOutcome> {
    return new Promise((resolve) => {
      this.#settle = resolve;
      this.#worker.busy();
      this.#worker.onMessage = (message) => this.#onMessage(message);
      this.#worker.onExit = (reason) =>
        this.#finish(
          reason === 'memory'
            ? memoryLimit(this.#tally)
            : this.#failed(`the sandbox thread died (${reason})`),
          'discard',
        );
      this.#deadline = performance.now() + this.#limits.wallMs;
      this.#wall = setTimeout(
        () => this.#finish(wallLimit(this.#tally, this.#limits.wallMs), 'discard'),
        this.#limits.wallMs,
      );
      void this.#bridge.ended.then((ending) => this.#hostEnded(ending));
      this.#worker.post({
        type: 'run',
        code: attempt.code,
        config: preludeConfig(attempt.namespaces, attempt.seed, attempt.clockOrigin, this.#limits),
        computeMs: this.#limits.computeMs,
      });
    });
  }

  #onMessage(message: FromWorker): void {
    if (this.#over) return;
    if (typeof message === 'string') {
      this.#requests(message);
      return;
    }
    switch (message.type) {
      case 'turn':
        for (const line of message.lines) this.#tally.logs.add(line);
        this.#requests(message.requests);
        return;
      case 'done':
        if (!this.#hostEnding) void this.#guestEnded(message.ending, message.recycle);
        return;
      default:
        return;
    }
  }

  /** Hands a turn's requests to the bridge, in the guest's order (the bridge numbers calls). */
  #requests(text: string): void {
    for (const request of readRequests(text).requests) this.#request(request);
  }

  #request(request: GuestRequest): void {
    const answered =
      request.kind === 'call'
        ? this.#bridge.call(request.address, request.args, request.connection)
        : this.#bridge.lookup(request.request);
    void answered.then((text) => this.#answer(request.id, text));
  }

  #answer(id: number, text: string): void {
    if (this.#over) return;
    this.#answerIds.push(id);
    this.#answerTexts.push(text);
    if (this.#answerIds.length === 1) queueMicrotask(() => this.#sendAnswers());
  }

  #sendAnswers(): void {
    const ids = this.#answerIds;
    const texts = this.#answerTexts;
    this.#answerIds = [];
    this.#answerTexts = [];
    if (!this.#over && ids.length > 0) this.#worker.post(encodeAnswers(ids, texts));
    this.#bridge.answered();
  }

  /** The code finished (or hit a limit): calls still in flight settle first, within the wall. */
  async #guestEnded(ending: WorkerEnding, recycle: boolean): Promise<void> {
    const outcome = this.#outcomeOf(ending);
    this.#bridge.close();
    await this.#withinWall(this.#bridge.idle());
    this.#finish(outcome, recycle ? 'discard' : 'release');
  }

  /** The host ended the attempt from inside a call: let calls in flight settle, then stop. */
  async #hostEnded(ending: SandboxEnding): Promise<void> {
    if (this.#over) return;
    this.#hostEnding = ending;
    await this.#withinWall(this.#bridge.idle());
    const outcome = endedByHost(ending, this.#tallied());
    const stopped = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), STOP_MS);
      this.#worker.onMessage = (message) => {
        if (typeof message !== 'string' && message.type === 'stopped') {
          clearTimeout(timer);
          resolve(!message.recycle);
        }
      };
    });
    this.#worker.post({ type: 'stop' });
    this.#over = true;
    this.#finish(outcome, (await stopped) ? 'release' : 'discard', true);
  }

  #outcomeOf(ending: WorkerEnding): SandboxOutcome {
    const tally = this.#tallied();
    switch (ending.kind) {
      case 'report':
        return outcomeFromReport(ending.text, tally, this.#limits.resultBytes);
      case 'syntax':
        return guestErrorOutcome({ ...ending, code: 'syntax_error' }, tally);
      case 'compute':
        return computeLimit(tally, this.#limits.computeMs);
      case 'memory':
        return memoryLimit(tally);
      case 'stack':
        return guestErrorOutcome({ name: 'RangeError', message: 'Maximum call stack size exceeded' }, tally);
      case 'deadlock':
        return failedOutcome(tally, {
          code: 'deadlock',
          message: 'The code is waiting for a promise that nothing will settle.',
        });
      case 'setup':
        return this.#failed(`the prelude could not start: ${ending.message}`);
      case 'crash':
        return this.#failed(ending.message);
    }
  }

  #failed(detail: string): SandboxOutcome {
    return failedOutcome(this.#tallied(), {
      code: 'sandbox_failed',
      message: `The sandbox failed while running the code: ${detail}.`,
    });
  }

  #tallied(): AttemptTally {
    this.#tally.calls = this.#bridge.calls;
    return this.#tally;
  }

  async #withinWall(promise: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const left = Math.max(0, this.#deadline - performance.now());
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }

  #finish(outcome: SandboxOutcome, fate: 'release' | 'discard', stopping = false): void {
    if (this.#over && !stopping) return;
    this.#over = true;
    clearTimeout(this.#wall);
    this.#bridge.close();
    outcome.calls = this.#bridge.calls;
    if (fate === 'release' && this.#worker.alive) this.#pool.release(this.#worker);
    else this.#pool.discard(this.#worker);
    this.#settle(outcome);
  }
}

function memoryFor(limits: SandboxLimits): number {
  return Math.max(limits.memoryBytes, MIN_MEMORY_BYTES);
}

function addressesOf(namespaces: SandboxAttempt['namespaces']): string[] {
  return Object.entries(namespaces).flatMap(([namespace, tools]) =>
    tools.map((tool) => `${namespace}.${tool}`),
  );
}
