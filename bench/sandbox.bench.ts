/**
 * The sandbox benchmark (issue: the sandbox, "Proof"): a trivial attempt cold and warm, and the
 * cost of one bridged call (sequential calls to a no-op host function: 25 samples of 200 in
 * QuickJS, 5 of 1,000 in workerd), each beside its floor measured in the same run, interleaved
 * with it so machine noise falls on both. Warm figures drop their first samples (both sides):
 * they are the JIT tiering up the code path (the call path takes a few thousand calls), not
 * the cost of a call in a hub that has been running.
 *
 * - QuickJS attempt floor: a bare worker_thread round trip that creates a QuickJS runtime and
 *   context and evaluates the same code (cold: the same, starting the thread and module first);
 * - bridged call floor: a bare message round trip between that thread and the host.
 * - Worker Loader (sandbox-workerd.ts, in workerd through Miniflare): attempt floor, loading a
 *   dynamic Worker and calling it; bridged call floor, an RPC from that Worker to a bare
 *   WorkerEntrypoint of the host.
 *
 * Runs on its own (`node bench/sandbox.bench.ts`) or from bench/run.ts through `run()`. When this
 * file is loaded as a worker thread it is the floor's thread instead.
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import type { SandboxAttempt, SandboxHost } from '../engine/sandbox/sandbox.ts';
import type { QuickJsSandbox as Sandbox } from '../local/quickjs/sandbox.ts';
import { WasmMemory } from '../local/quickjs/wasm-memory.ts';
import { fmt, median, table } from './measure.ts';

/** One figure beside its floor. */
export interface SandboxFigure {
  label: string;
  /** Milliseconds. */
  ours: number;
  floor: number;
}

export interface SandboxBenchReport {
  quickjs: SandboxFigure[];
  workerLoader: SandboxFigure[] | { skipped: string };
}

const TRIVIAL = 'return 1';
/** Calls per bridged-call sample; samples alternate with the floor's, many times over. */
const CALLS = 200;
const CALLING = `for (let i = 0; i < ${CALLS}; i++) await bench.noop({});\nreturn 1`;
const WARM_RUNS = 200;
const COLD_RUNS = 8;
const CALL_RUNS = 25;
/** Bridged-call samples dropped first, on both sides, while the call path's code tiers up. */
const CALL_WARMUP = 10;
/** Pause between warm attempts: a hub's attempts arrive seconds apart, never back to back. */
const GAP_MS = 2;

const host: SandboxHost = {
  call: async () => ({ kind: 'value', value: null }),
  lookup: async () => ({ kind: 'value', value: '' }),
};
const attempt = (code: string): SandboxAttempt => ({
  runId: 'bench',
  attempt: 1,
  code,
  namespaces: { bench: ['noop'] },
  seed: 'bench',
  clockOrigin: 1_800_000_000_000,
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function elapsed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** The floor's thread, driven by messages. */
class FloorThread {
  readonly #worker = new Worker(new URL(import.meta.url));
  readonly ready = new Promise<void>((resolve) => this.#worker.once('message', () => resolve()));

  ask(message: { type: 'eval'; code: string } | { type: 'ping' }): Promise<void> {
    return new Promise((resolve) => {
      this.#worker.once('message', () => resolve());
      this.#worker.postMessage(message);
    });
  }

  close(): Promise<number> {
    return this.#worker.terminate();
  }
}

async function quickjsBench(): Promise<SandboxFigure[]> {
  // Imported here, not at the top: this file is also the floor's thread, which loads QuickJS only.
  const { QuickJsSandbox } = await import('../local/quickjs/sandbox.ts');
  const open = (options: ConstructorParameters<typeof QuickJsSandbox>[0]): Sandbox =>
    new QuickJsSandbox(options);
  const cold = { ours: [] as number[], floor: [] as number[] };
  for (let i = 0; i < COLD_RUNS; i++) {
    cold.floor.push(
      await elapsed(async () => {
        const thread = new FloorThread();
        await thread.ready;
        await thread.ask({ type: 'eval', code: `(async function () {\n${TRIVIAL}\n})` });
        await thread.close();
      }),
    );
    cold.ours.push(
      await elapsed(async () => {
        const sandbox = open({ prewarm: false, poolSize: 1 });
        await sandbox.run(attempt(TRIVIAL), host);
        await sandbox.close();
      }),
    );
  }

  const sandbox = open({});
  const floor = new FloorThread();
  await floor.ready;
  const warm = { ours: [] as number[], floor: [] as number[] };
  for (let i = 0; i < WARM_RUNS + 20; i++) {
    await pause(GAP_MS);
    const f = await elapsed(() => floor.ask({ type: 'eval', code: `(async function () {\n${TRIVIAL}\n})` }));
    await pause(GAP_MS);
    const o = await elapsed(() => sandbox.run(attempt(TRIVIAL), host));
    if (i >= 20) {
      warm.floor.push(f);
      warm.ours.push(o);
    }
  }

  const calls = { ours: [] as number[], floor: [] as number[] };
  for (let i = 0; i < CALL_WARMUP + CALL_RUNS; i++) {
    const floorCall =
      (await elapsed(async () => {
        for (let j = 0; j < CALLS; j++) await floor.ask({ type: 'ping' });
      })) / CALLS;
    await pause(GAP_MS);
    const outcome = { status: '' };
    const total = await elapsed(async () =>
      Object.assign(outcome, await sandbox.run(attempt(CALLING), host)),
    );
    if (outcome.status !== 'completed') throw new Error(`the bridged-call attempt ended ${outcome.status}`);
    if (i < CALL_WARMUP) continue;
    calls.floor.push(floorCall);
    calls.ours.push((total - median(warm.ours)) / CALLS);
  }
  await floor.close();
  await sandbox.close();
  return [
    { label: 'trivial attempt, cold', ours: median(cold.ours), floor: median(cold.floor) },
    { label: 'trivial attempt, warm', ours: median(warm.ours), floor: median(warm.floor) },
    { label: 'one bridged call', ours: median(calls.ours), floor: median(calls.floor) },
  ];
}

/** Measures both drivers. */
export async function run(): Promise<SandboxBenchReport> {
  const quickjs = await quickjsBench();
  const { workerLoaderBench } = await import('./sandbox-workerd.ts');
  const workerLoader = await workerLoaderBench().catch((error: unknown) => ({
    skipped: error instanceof Error ? error.message : String(error),
  }));
  return { quickjs, workerLoader };
}

/** The report as text. */
export function format(report: SandboxBenchReport): string {
  const rows = (driver: string, figures: SandboxFigure[]) =>
    figures.map((f) => [`${driver}: ${f.label}`, fmt(f.ours), fmt(f.floor), `${fmt(f.ours / f.floor, 2)}×`]);
  const loader = Array.isArray(report.workerLoader) ? rows('Worker Loader', report.workerLoader) : [];
  const lines = [
    table([['sandbox (ms)', 'ours', 'floor', 'ours/floor'], ...rows('QuickJS', report.quickjs), ...loader]),
  ];
  if (!Array.isArray(report.workerLoader))
    lines.push(`Worker Loader: not measured (${report.workerLoader.skipped})`);
  return lines.join('\n');
}

if (!isMainThread) {
  // The floor's thread: the same QuickJS module and memory setup as a sandbox worker, no prelude.
  const port = parentPort;
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmMemory: new WasmMemory({ initial: 256, maximum: 1152 }) }),
  );
  port?.on('message', (message: { type: string; code?: string }) => {
    if (message.type === 'eval') {
      const runtime = quickjs.newRuntime();
      const context = runtime.newContext();
      const result = context.evalCode(message.code ?? '', 'guest.js');
      (result.error ?? result.value).dispose();
      context.dispose();
      runtime.dispose();
    }
    port.postMessage('done');
  });
  port?.postMessage('ready');
} else if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  console.log(format(await run()));
}
