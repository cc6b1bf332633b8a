/**
 * One attempt inside a QuickJS worker thread: a fresh runtime and context with the prelude
 * (prepared before the attempt arrives), the model's code, and the event loop that feeds it
 * answers and timers. A prepared context runs exactly one attempt, then is disposed.
 *
 * Invariants:
 * - Compute is counted per turn (each stretch of guest execution: setup, an answer, a timer);
 *   waiting for the host costs nothing. The interrupt handler stops the guest once the turns
 *   add up to `computeMs`, and QuickJS's interrupt cannot be caught by the guest.
 * - The guest heap is capped twice: QuickJS's own limit (a clean "out of memory" in the usual
 *   case) and the WebAssembly.Memory `maximum` the worker was built with (the hard cap).
 * - The host holds no guest promise or function: guest calls carry an id, answers go back in
 *   through the prelude's `deliver(id, text)` and timers through `fire(id)`.
 * - Calls and lookups leave through the outbox (outbox.ts), taken once per turn; a
 *   turn's requests and log lines go to the host in one message, and answers that arrive
 *   together are delivered in one turn, with the guest's jobs run once after all of them. These
 *   per-call crossings go straight through the wasm API (direct.ts).
 * - Timers and the prelude's idle check are timers.ts; the idle check runs at the end
 *   of a turn once nothing is in flight and no timer waits (until then it could only find the
 *   guest busy).
 * - Every handle is disposed when the attempt ends; if disposal fails (a leak, an abort), the
 *   worker says it is poisoned and the host replaces it. A limit-ended attempt is not disposed at
 *   all: its QuickJS is never run again, the worker is.
 */
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { PRELUDE_SOURCE } from '../../engine/prelude/index.ts';
import { GUEST_FILE } from '../../engine/sandbox/guest-report.ts';
import { DirectCalls, WasmHeapFull } from './direct.ts';
import { encodeRequests, OUTBOX_SOURCE, readRequests } from './outbox.ts';
import type { FromWorker, WorkerEnding } from './protocol.ts';
import { GuestTimers, IDLE_CHECK } from './timers.ts';

/** QuickJS's own stack limit; the worker thread's native stack (8 MB) stays well clear of it. */
const STACK_BYTES = 1024 * 1024;
/** Log text the worker ships at most (the host keeps the real, smaller budget). */
const LOG_SHIP_CHARS = 256 * 1024;
const CALLS_UNREADABLE =
  'the worker could not read the calls the code made (it has been replaced; run the code again)';
/** Idle checks run back to back in one turn at most; past that the code is deadlocked. */
const IDLE_CHECKS_PER_TURN = 3;

export interface AttemptInput {
  code: string;
  config: string;
  computeMs: number;
}

interface Entry {
  run: QuickJSHandle;
  deliver: QuickJSHandle;
  fire: QuickJSHandle;
}

export class QuickJsAttempt {
  readonly #post: (message: FromWorker) => void;
  readonly #memoryFull: () => boolean;
  readonly #rt: QuickJSRuntime;
  readonly #ctx: QuickJSContext;
  readonly #handles: QuickJSHandle[] = [];
  readonly #awaiting = new Set<number>();
  readonly #timers = new GuestTimers((id) => this.#turn(() => this.#fire(id)));
  #configure: QuickJSHandle | undefined;
  #host: QuickJSHandle | undefined;
  #take: QuickJSHandle | undefined;
  #direct: DirectCalls | undefined;
  #unprepared: string | undefined;
  #entry: Entry | undefined;
  #computeMs = 0;
  #used = 0;
  #deadline = Number.POSITIVE_INFINITY;
  #interrupted = false;
  #report: string | undefined;
  #lines: string[] = [];
  /** The turn's accepted requests, in the outbox's form. */
  #requests = '';
  #shipped = 0;
  #ended = false;
  #disposed = false;

  /**
   * Prepares a runtime and context with the prelude evaluated, before any attempt is known: the
   * costly part (QuickJS compiling the prelude) happens while the worker is idle.
   */
  constructor(
    quickjs: QuickJSWASMModule,
    memoryBytes: number,
    post: (message: FromWorker) => void,
    memoryFull: () => boolean,
  ) {
    this.#post = post;
    this.#memoryFull = memoryFull;
    this.#rt = quickjs.newRuntime();
    this.#rt.setMemoryLimit(memoryBytes);
    this.#rt.setMaxStackSize(STACK_BYTES);
    this.#rt.setInterruptHandler(() => {
      if (performance.now() > this.#deadline) this.#interrupted = true;
      return this.#interrupted;
    });
    this.#ctx = this.#rt.newContext();
    try {
      const ctx = this.#ctx;
      const prelude = this.#keep(
        ctx.unwrapResult(ctx.evalCode(PRELUDE_SOURCE, 'prelude.js', { strict: true })),
      );
      this.#configure = this.#keep(ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined)));
      const outbox = this.#keep(ctx.unwrapResult(ctx.evalCode(OUTBOX_SOURCE, 'outbox.js', { strict: true })));
      const native = this.#keep(this.#hostObject());
      const made = this.#keep(ctx.unwrapResult(ctx.callFunction(outbox, ctx.undefined, native)));
      this.#host = this.#keep(ctx.getProp(made, 'primitives'));
      this.#take = this.#keep(ctx.getProp(made, 'take'));
      this.#direct = new DirectCalls(ctx);
    } catch (error) {
      this.#unprepared = error instanceof Error ? error.message : String(error);
    }
  }

  /** Configures the prelude for this attempt, compiles the code and starts it. */
  start(input: AttemptInput): void {
    this.#computeMs = input.computeMs;
    const configure = this.#configure;
    const host = this.#host;
    if (this.#unprepared !== undefined || !configure || !host) {
      this.#end({ kind: 'setup', message: this.#unprepared ?? 'no prelude' });
      return;
    }
    this.#turn(() => {
      const ctx = this.#ctx;
      const config = this.#keep(ctx.newString(input.config));
      const configured = ctx.callFunction(configure, ctx.undefined, host, config);
      if (configured.error) {
        const error = ctx.dump(this.#keep(configured.error)) as { message?: unknown };
        return this.#end({ kind: 'setup', message: String(error?.message ?? error) });
      }
      const guest = this.#keep(configured.value);
      const entry: Entry = {
        run: this.#keep(ctx.getProp(guest, 'run')),
        deliver: this.#keep(ctx.getProp(guest, 'deliver')),
        fire: this.#keep(ctx.getProp(guest, 'fire')),
      };
      this.#entry = entry;
      const compiled = ctx.evalCode(`(async function () {\n${input.code}\n})`, GUEST_FILE, { strict: true });
      if (compiled.error) {
        const error = ctx.dump(this.#keep(compiled.error)) as {
          name?: unknown;
          message?: unknown;
          stack?: unknown;
        };
        if (this.#interrupted) return;
        const { name, message, stack } = error ?? {};
        return this.#end({
          kind: 'syntax',
          name: String(name),
          message: String(message),
          stack: String(stack ?? ''),
        });
      }
      const main = this.#keep(compiled.value);
      this.#call(entry.run, main);
    });
  }

  /** The host's answers: `texts[i]` to call `ids[i]`, all in one turn. */
  answer(ids: readonly number[], texts: readonly string[]): void {
    if (this.#ended) return;
    const due: number[] = [];
    ids.forEach((id, i) => {
      if (this.#awaiting.delete(id)) due.push(i);
    });
    if (due.length === 0) return;
    this.#turn(() => {
      const entry = this.#entry;
      const direct = this.#direct;
      if (!entry || !direct) return;
      for (const i of due) {
        if (this.#interrupted || this.#ended) return;
        direct.callWithIdAndText(entry.deliver, ids[i] ?? -1, texts[i] ?? '');
      }
    });
  }

  /** Ends the attempt now, reporting nothing (the host already has its outcome). */
  stop(): boolean {
    this.#ended = true;
    return this.#dispose();
  }

  #hostObject(): QuickJSHandle {
    const ctx = this.#ctx;
    const host = ctx.newObject();
    const define = (name: string, fn: (...args: QuickJSHandle[]) => void) => {
      const handle = ctx.newFunction(name, (...args) => {
        fn(...args);
      });
      ctx.setProp(host, name, handle);
      handle.dispose();
    };
    const string = (handle: QuickJSHandle | undefined) =>
      handle && ctx.typeof(handle) === 'string' ? ctx.getString(handle) : '';
    const number = (handle: QuickJSHandle | undefined) =>
      handle && ctx.typeof(handle) === 'number' ? ctx.getNumber(handle) : -1;
    define('log', (line) => {
      const value = string(line);
      if (this.#shipped > LOG_SHIP_CHARS) return;
      this.#shipped += value.length;
      this.#lines.push(value);
    });
    define('setTimer', (id, ms) => this.#timers.set(number(id), number(ms)));
    define('clearTimer', (id) => this.#timers.clear(number(id)));
    define('done', (report) => {
      this.#report ??= string(report);
    });
    return host;
  }

  #fire(id: number): void {
    const entry = this.#entry;
    if (!entry) return;
    const key = this.#ctx.newNumber(id);
    this.#call(entry.fire, key);
    key.dispose();
  }

  /** Calls a guest entry point; what it throws (only the prelude's own bugs) is dropped. */
  #call(fn: QuickJSHandle, ...args: QuickJSHandle[]): void {
    const result = this.#ctx.callFunction(fn, this.#ctx.undefined, ...args);
    (result.error ?? result.value).dispose();
  }

  /** Runs guest code for one turn, then every job it queued, within the compute budget. */
  #turn(work: () => void): void {
    if (this.#ended) return;
    const started = performance.now();
    this.#deadline = started + (this.#computeMs - this.#used);
    try {
      work();
      this.#drain();
      this.#takeRequests();
      for (let checks = 0; checks < IDLE_CHECKS_PER_TURN && this.#idleCheckDue(); checks++) {
        this.#timers.takeIdleCheck();
        this.#fire(IDLE_CHECK);
        this.#drain();
        this.#takeRequests();
      }
    } catch (error) {
      // A RangeError here is the worker's own stack giving out under deep wasm recursion.
      if (error instanceof RangeError) this.#end({ kind: 'stack' });
      else if (error instanceof WasmHeapFull) this.#end({ kind: 'memory' });
      else this.#end({ kind: 'crash', message: error instanceof Error ? error.message : String(error) });
    } finally {
      this.#used += performance.now() - started;
      this.#deadline = Number.POSITIVE_INFINITY;
    }
    this.#afterTurn();
  }

  #drain(): void {
    const direct = this.#direct;
    if (this.#ended || !direct) return;
    do {
      const failure = direct.runJobs();
      if (failure) {
        const error = this.#ctx.dump(failure) as { message?: unknown };
        failure.dispose();
        if (/out of memory/i.test(String(error?.message))) {
          this.#end({ kind: 'memory' });
          return;
        }
      }
    } while (!this.#interrupted && this.#rt.hasPendingJob());
  }

  /** Moves what the guest queued in its outbox this turn to the requests the turn will post. */
  #takeRequests(): void {
    const take = this.#take;
    const direct = this.#direct;
    if (this.#ended || this.#interrupted || !take || !direct) return;
    const result = direct.callForText(take);
    if ('error' in result) {
      const error = this.#ctx.dump(result.error) as { message?: unknown };
      result.error.dispose();
      if (this.#interrupted) return;
      const outOfMemory = /out of memory/i.test(String(error?.message)) || this.#memoryFull();
      this.#end(outOfMemory ? { kind: 'memory' } : { kind: 'crash', message: CALLS_UNREADABLE });
      return;
    }
    if (result.text === '') return;
    const { requests, complete } = readRequests(result.text);
    const accepted = requests.filter((request) => {
      if (this.#awaiting.has(request.id) || request.id < 1) return false;
      this.#awaiting.add(request.id);
      return true;
    });
    this.#requests +=
      complete && accepted.length === requests.length ? result.text : encodeRequests(accepted);
  }

  /** The idle check is asked for and could find the guest idle: nothing in flight, no timer. */
  #idleCheckDue(): boolean {
    return (
      this.#timers.idleCheckAsked &&
      this.#report === undefined &&
      !this.#ended &&
      !this.#interrupted &&
      this.#awaiting.size === 0 &&
      !this.#timers.waiting &&
      !this.#rt.hasPendingJob()
    );
  }

  #afterTurn(): void {
    if (this.#ended) return;
    if (this.#interrupted) {
      this.#end({ kind: 'compute' });
      return;
    }
    this.#flush();
    if (this.#report !== undefined) {
      // At the hard cap QuickJS cannot even build its "out of memory" error and throws null:
      // a failure with the module's memory full is the memory limit, whatever was thrown.
      const failed = this.#report.startsWith('{"status":"failed"');
      this.#end(failed && this.#memoryFull() ? { kind: 'memory' } : { kind: 'report', text: this.#report });
      return;
    }
    if (this.#entry && this.#awaiting.size === 0 && !this.#timers.waiting && !this.#rt.hasPendingJob()) {
      this.#end({ kind: 'deadlock' });
    }
  }

  /** Posts the turn's requests and log lines, in one message. */
  #flush(): void {
    if (this.#lines.length > 0) this.#post({ type: 'turn', requests: this.#requests, lines: this.#lines });
    else if (this.#requests !== '') this.#post(this.#requests);
    this.#requests = '';
    this.#lines = [];
  }

  #end(ending: WorkerEnding): void {
    if (this.#ended) return;
    this.#ended = true;
    // Requests taken in a turn a limit cut short never leave: that turn's calls never started.
    if (ending.kind !== 'report') this.#requests = '';
    this.#flush();
    const limitHit =
      ending.kind === 'compute' ||
      ending.kind === 'memory' ||
      ending.kind === 'stack' ||
      ending.kind === 'crash';
    // A module whose memory grew to the cap cannot give it back: the next attempt gets a new one.
    this.#post({ type: 'done', ending, recycle: limitHit || this.#memoryFull() });
    // Disposal runs QuickJS again (finalizers): never against an exhausted budget or a broken
    // heap. It happens after the outcome left, off the attempt's critical path; the worker
    // handles no other message before it finishes, and a failure retires the worker.
    if (!limitHit && !this.#dispose()) this.#post({ type: 'poisoned' });
  }

  #keep(handle: QuickJSHandle): QuickJSHandle {
    this.#handles.push(handle);
    return handle;
  }

  /** Disposes everything; false if QuickJS objected (the worker must then be replaced). */
  #dispose(): boolean {
    if (this.#disposed) return true;
    this.#disposed = true;
    this.#timers.clearAll();
    try {
      this.#direct?.dispose();
      for (const handle of this.#handles.splice(0)) if (handle.alive) handle.dispose();
      this.#ctx.dispose();
      this.#rt.dispose();
      return true;
    } catch {
      return false;
    }
  }
}
