/**
 * WorkerLoaderSandbox: the hosted hub's Sandbox (engine/ports.ts). Each attempt is a fresh
 * dynamic Worker (Worker Loader `load`, never cached: no isolate outlives its attempt) with
 * `globalOutbound: null`, so it has no network; its only way out is `env.BRIDGE`, the
 * SandboxBridge entrypoint handed in through `ctx.exports` with props naming the hub, run and
 * attempt (sandbox-bridge.ts; its `route` says whether the host's handler runs in the bridge's
 * context or in the hub's Durable Object). The modules are built in worker-loader-guest.ts.
 *
 * Limits: the Worker Loader's `cpuMs` is the compute limit where Cloudflare enforces it; our own
 * accounting covers the rest, the same in every environment: compute checks at every loop and
 * function entry (engine/pipeline/fuel.ts, `computeMs` × CHECKS_PER_MS, which also stops a
 * runaway loop where `cpuMs` is not enforced, as in local workerd), the wall clock, the bridge
 * (HostBridge), the log budget and the result's size. Memory is the platform's: an isolate is
 * capped by Cloudflare (128 MB), not at `memoryBytes`, and local workerd caps nothing.
 *
 * `run` never throws; every failure is an outcome.
 */
import { hex } from '../engine/hex.ts';
import { addComputeChecks } from '../engine/pipeline/fuel.ts';
import { refuseModules } from '../engine/pipeline/index.ts';
import {
  type AttemptTally,
  computeLimit,
  endedByHost,
  failedOutcome,
  guestErrorOutcome,
  memoryLimit,
  outcomeFromReport,
  wallLimit,
} from '../engine/sandbox/guest-report.ts';
import { HostBridge } from '../engine/sandbox/host-bridge.ts';
import { sandboxLimits } from '../engine/sandbox/limits.ts';
import { LogSink } from '../engine/sandbox/log-sink.ts';
import { preludeConfig } from '../engine/sandbox/protocol.ts';
import type {
  Sandbox,
  SandboxAttempt,
  SandboxEnding,
  SandboxHost,
  SandboxOutcome,
} from '../engine/sandbox/sandbox.ts';
import { type BridgeProps, closeBridge, openBridge } from './sandbox-bridge.ts';
import { type GuestEntrypoint, type GuestRun, guestModules } from './worker-loader-guest.ts';

/** Compute checks allowed per millisecond of `computeMs`: about a tight loop's pace in V8. */
export const CHECKS_PER_MS = 100_000;
const COMPATIBILITY_DATE = '2026-11-01';

export interface WorkerLoaderSandboxOptions {
  /** The Worker Loader binding (`[[worker_loaders]]` in wrangler.toml). */
  loader: WorkerLoader;
  /** The bridge for one attempt: `(props) => ctx.exports.SandboxBridge({ props })`. */
  bridge: (props: BridgeProps) => Fetcher;
  /** The hub the attempts belong to (named in the bridge's props). */
  hub: string;
  /**
   * Where the bridge finds the attempt (sandbox-bridge.ts): `isolate` (the default) answers in
   * the bridge's own context; `hub` forwards to the hub's Durable Object, which must then expose
   * `sandboxBridge` (BridgeRouter), as a host whose handler touches its storage needs.
   */
  route?: BridgeProps['route'];
}

type Ending = { kind: 'guest'; run: GuestRun } | { kind: 'threw'; error: unknown } | { kind: 'wall' };

export class WorkerLoaderSandbox implements Sandbox {
  readonly #options: WorkerLoaderSandboxOptions;

  constructor(options: WorkerLoaderSandboxOptions) {
    this.#options = options;
  }

  async run(attempt: SandboxAttempt, host: SandboxHost): Promise<SandboxOutcome> {
    const limits = sandboxLimits(attempt.limits);
    const tally: AttemptTally = { logs: new LogSink(limits.logBytes), calls: 0 };
    const key = randomHex(16);
    try {
      const refused = refuseModules(attempt.code);
      if (refused) return failedOutcome(tally, refused);
      const check = `__check_${randomHex(8)}`;
      const fueled = addComputeChecks(attempt.code, check);
      if (!fueled.ok) {
        const { message, line, column } = fueled.failure;
        return failedOutcome(tally, {
          code: 'syntax_error',
          name: 'SyntaxError',
          message: `SyntaxError: ${message}`,
          line,
          column,
        });
      }
      const bridge = new HostBridge(host, {
        maxConcurrent: limits.maxConcurrent,
        addresses: Object.entries(attempt.namespaces).flatMap(([ns, tools]) =>
          tools.map((tool) => `${ns}.${tool}`),
        ),
        resultBytes: limits.resultBytes,
      });
      let hostEnding: SandboxEnding | undefined;
      void bridge.ended.then((ending) => {
        hostEnding = ending;
      });
      openBridge(key, { bridge, logs: tally.logs });
      const worker = this.#options.loader.load({
        compatibilityDate: COMPATIBILITY_DATE,
        mainModule: 'main.js',
        modules: guestModules(fueled.code, check),
        env: {
          BRIDGE: this.#options.bridge({
            hub: this.#options.hub,
            run: attempt.runId,
            attempt: attempt.attempt,
            key,
            route: this.#options.route ?? 'isolate',
          }),
        },
        globalOutbound: null,
        limits: { cpuMs: limits.computeMs },
      });
      const guest = worker.getEntrypoint() as unknown as GuestEntrypoint;
      const config = preludeConfig(attempt.namespaces, attempt.seed, attempt.clockOrigin, limits);
      // Only promises of this context are awaited here (the guest's answer, our own timer):
      // workerd runs a continuation in the context that resolved its promise, and the bridge's
      // calls resolve theirs in the bridge's context, which ends with each call. A host ending
      // is read from the bridge once the guest has reported, which it does only after its calls
      // in flight have settled (and, after the host ended the attempt, as soon as it is idle).
      const wall: { timer?: ReturnType<typeof setTimeout> } = {};
      const ending = await Promise.race<Ending>([
        guest.run(config, limits.computeMs * CHECKS_PER_MS).then(
          (run) => ({ kind: 'guest', run }),
          (error: unknown) => ({ kind: 'threw', error }),
        ),
        new Promise<Ending>((resolve) => {
          wall.timer = setTimeout(() => resolve({ kind: 'wall' }), limits.wallMs);
        }),
      ]);
      if (wall.timer !== undefined) clearTimeout(wall.timer);
      bridge.close();
      tally.calls = bridge.calls;
      if (ending.kind === 'guest') for (const line of ending.run.logs) tally.logs.add(line);
      if (ending.kind !== 'wall' && hostEnding) return endedByHost(hostEnding, tally);
      return outcomeOf(ending, tally, limits.resultBytes, limits.computeMs, limits.wallMs);
    } catch (error) {
      return failedOutcome(tally, {
        code: 'sandbox_failed',
        message: `The sandbox failed while running the code: ${describe(error)}.`,
      });
    } finally {
      closeBridge(key);
    }
  }

  async close(): Promise<void> {}
}

function outcomeOf(
  ending: Ending,
  tally: AttemptTally,
  resultBytes: number,
  computeMs: number,
  wallMs: number,
): SandboxOutcome {
  switch (ending.kind) {
    case 'guest':
      return ending.run.exhausted
        ? computeLimit(tally, computeMs)
        : outcomeFromReport(ending.run.report, tally, resultBytes);
    case 'wall':
      return wallLimit(tally, wallMs);
    case 'threw':
      return thrownOutcome(ending.error, tally, computeMs);
  }
}

/** The dynamic Worker failed as a whole: it did not compile, or the platform stopped it. */
function thrownOutcome(error: unknown, tally: AttemptTally, computeMs: number): SandboxOutcome {
  const message = describe(error);
  if (/exceeded (its )?CPU/i.test(message)) return computeLimit(tally, computeMs);
  if (/exceeded (its )?memory|memory limit/i.test(message)) return memoryLimit(tally);
  // A module that does not compile: "Failed to start Worker:\nUncaught SyntaxError: … at guest.js:3:4".
  const syntax = /Uncaught SyntaxError: ([^\n]*)\n?\s*(at [^\n]*)?/.exec(message);
  if (syntax) {
    return guestErrorOutcome(
      { code: 'syntax_error', name: 'SyntaxError', message: syntax[1], stack: syntax[2] ?? '' },
      tally,
    );
  }
  if (/hung|never generate a response/i.test(message)) {
    return failedOutcome(tally, {
      code: 'deadlock',
      message: 'The code is waiting for a promise that nothing will settle.',
    });
  }
  return failedOutcome(tally, {
    code: 'sandbox_failed',
    message: `The sandbox stopped the code: ${message}`,
  });
}

function randomHex(bytes: number): string {
  return hex(crypto.getRandomValues(new Uint8Array(bytes)));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
