/**
 * A small pool of warm QuickJS worker threads, by heap size (almost always the default). A warm
 * worker has its WebAssembly module compiled and instantiated, so an attempt pays only for a
 * fresh runtime and context. A worker that hit a limit or broke is terminated, never reused, and
 * a replacement is started in the background. Idle workers do not keep the process alive.
 *
 * Never more than `max` workers are alive at once, busy and warm together (spec: Security, I7):
 * each holds a guest heap of up to 64 MB. The engine already runs at most `concurrentAttempts`
 * attempts across the hub (engine/runs/attempt-slots.ts), so a process never needs more; should
 * more attempts come, the extra ones wait for a worker, and a warm worker of another heap size
 * gives way.
 *
 * Each thread also gets Node's own resource limits: its JavaScript heap is bounded (whatever the
 * guest makes the worker buffer, the host process is not at risk) and its native stack is 8 MB,
 * well above QuickJS's 1 MB stack limit, so deep recursion ends inside QuickJS.
 */
import { Worker } from 'node:worker_threads';
import { SANDBOX_WORKER } from '../package-files.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.ts';

/** One worker thread, ready for attempts once `ready` resolves. */
export class QuickJsWorker {
  readonly memoryBytes: number;
  readonly ready: Promise<void>;
  /** Receives every message but the first `ready`. */
  onMessage: (message: FromWorker) => void = () => {};
  /** Called once if the thread dies (an error, Node's heap limit, a termination). */
  onExit: (reason: string) => void = () => {};
  readonly #worker: Worker;
  #alive = true;

  constructor(memoryBytes: number) {
    this.memoryBytes = memoryBytes;
    const setup: WorkerSetup = { memoryBytes };
    this.#worker = new Worker(SANDBOX_WORKER, {
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 },
      stdout: true,
      stderr: true,
    });
    // Emscripten prints aborts to stderr; the outcome already says what happened.
    this.#worker.stdout.resume();
    this.#worker.stderr.resume();
    let failStart: (error: Error) => void = () => {};
    this.ready = new Promise((resolve, reject) => {
      failStart = reject;
      const first = (message: FromWorker) => {
        if (typeof message === 'string' || message.type !== 'ready') return;
        this.#worker.off('message', first);
        this.#worker.on('message', (next: FromWorker) => {
          if (typeof next !== 'string' && next.type === 'poisoned') this.#poisoned();
          else this.onMessage(next);
        });
        resolve();
      };
      this.#worker.on('message', first);
    });
    this.ready.catch(() => {});
    this.#worker.on('error', (error: Error & { code?: string }) => {
      failStart(error);
      this.#died(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : error.message);
    });
    this.#worker.on('exit', (code) => {
      failStart(new Error(`the QuickJS worker exited (${code})`));
      this.#died(`the QuickJS worker exited (${code})`);
    });
    this.idle();
  }

  get alive(): boolean {
    return this.#alive;
  }

  post(message: ToWorker): void {
    if (this.#alive) this.#worker.postMessage(message);
  }

  /** Keeps the process alive while an attempt runs. */
  busy(): void {
    this.#worker.ref();
  }

  idle(): void {
    this.#worker.unref();
  }

  terminate(): void {
    this.#alive = false;
    this.onMessage = () => {};
    void this.#worker.terminate();
  }

  /** The worker could not clean up after an attempt: it never runs another. */
  #poisoned(): void {
    void this.#worker.terminate();
  }

  #died(reason: string): void {
    if (!this.#alive) return;
    this.#alive = false;
    this.onExit(reason);
  }
}

export class QuickJsPool {
  readonly #size: number;
  readonly #max: number;
  readonly #idle = new Map<number, QuickJsWorker[]>();
  /** Workers started and not yet terminated or dead, busy and idle alike. */
  readonly #alive = new Set<QuickJsWorker>();
  /** Acquirers waiting for a worker to be released or discarded. */
  readonly #waiting: (() => void)[] = [];
  #closed = false;
  #started = 0;

  /** `size` warm workers kept per heap size; at most `max` workers alive at once. */
  constructor(size: number, max = Number.POSITIVE_INFINITY) {
    this.#max = Math.max(1, max);
    this.#size = Math.min(size, this.#max);
  }

  /** Starts `count` workers for `memoryBytes` ahead of the first attempt, as far as `max` allows. */
  warm(memoryBytes: number, count = this.#size): void {
    const idle = this.#list(memoryBytes);
    while (!this.#closed && idle.length < Math.min(count, this.#size) && this.#room()) {
      idle.push(this.#spawn(memoryBytes));
    }
  }

  /**
   * A ready worker for `memoryBytes`: a warm one if there is one, else a new one if `max` allows,
   * else the next one released.
   */
  async acquire(memoryBytes: number): Promise<QuickJsWorker> {
    for (;;) {
      if (this.#closed) throw new Error('the QuickJS sandbox is closed');
      const idle = this.#list(memoryBytes);
      while (idle.length > 0) {
        const worker = idle.shift() as QuickJsWorker;
        const ok = await worker.ready.then(
          () => worker.alive,
          () => false,
        );
        if (ok) return worker;
      }
      if (this.#room()) {
        const worker = this.#spawn(memoryBytes);
        try {
          await worker.ready;
        } catch (error) {
          // It never started: its room goes to whoever waits, and this attempt hears why.
          this.#retire(worker);
          this.#waiting.shift()?.();
          throw error;
        }
        return worker;
      }
      const other = [...this.#idle.values()].flat()[0];
      if (other !== undefined) this.#retire(other);
      else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  /** Returns a healthy worker after its attempt. */
  release(worker: QuickJsWorker): void {
    worker.onMessage = () => {};
    worker.onExit = () => {};
    worker.idle();
    const idle = this.#list(worker.memoryBytes);
    if (this.#closed || !worker.alive || idle.length >= this.#size) this.#retire(worker);
    else idle.push(worker);
    this.#waiting.shift()?.();
  }

  /** Terminates a worker that must not run again, and starts a replacement. */
  discard(worker: QuickJsWorker): void {
    this.#retire(worker);
    if (this.#waiting.length > 0) this.#waiting.shift()?.();
    else this.warm(worker.memoryBytes, 1);
  }

  /** Workers alive now, busy and idle. */
  get alive(): number {
    this.#room();
    return this.#alive.size;
  }

  /** Worker threads started so far (warm ones and replacements included). */
  get started(): number {
    return this.#started;
  }

  close(): void {
    this.#closed = true;
    for (const list of this.#idle.values()) for (const worker of list.splice(0)) this.#retire(worker);
    for (const wake of this.#waiting.splice(0)) wake();
  }

  /** True while another worker may start: fewer than `max` alive (the dead are forgotten first). */
  #room(): boolean {
    for (const worker of this.#alive) if (!worker.alive) this.#alive.delete(worker);
    return this.#alive.size < this.#max;
  }

  #retire(worker: QuickJsWorker): void {
    worker.terminate();
    this.#alive.delete(worker);
    const idle = this.#list(worker.memoryBytes);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  }

  #spawn(memoryBytes: number): QuickJsWorker {
    this.#started++;
    const worker = new QuickJsWorker(memoryBytes);
    this.#alive.add(worker);
    worker.onExit = () => {
      const idle = this.#list(memoryBytes);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      // A worker that died idle (or never started) leaves room: an attempt waiting for one goes on.
      this.#alive.delete(worker);
      this.#waiting.shift()?.();
    };
    return worker;
  }

  #list(memoryBytes: number): QuickJsWorker[] {
    let list = this.#idle.get(memoryBytes);
    if (!list) {
      list = [];
      this.#idle.set(memoryBytes, list);
    }
    return list;
  }
}
