/**
 * The Worker Loader half of the sandbox benchmark: starts bench/sandbox-workerd-worker.js in
 * workerd with wrangler (local, no account needed), and asks it for each figure and its floor
 * in turn, so both see the same machine.
 */
import { fileURLToPath } from 'node:url';
import { unstable_dev } from 'wrangler';
import { median } from './measure.ts';
import type { SandboxFigure } from './sandbox.bench.ts';

const WORKER = fileURLToPath(new URL('./sandbox-workerd-worker.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('./sandbox.wrangler.toml', import.meta.url));
const CALLS = 1000;
const ROUNDS = 5;
const PER_ROUND = 20;

export async function workerLoaderBench(): Promise<SandboxFigure[]> {
  const worker = await unstable_dev(WORKER, {
    config: CONFIG,
    logLevel: 'error',
    experimental: { disableExperimentalWarning: true },
  });
  try {
    /** Milliseconds per item of `n` done in one batch. */
    const each = async (path: string, n: number): Promise<number> => {
      const response = await worker.fetch(`http://bench${path}?n=${n}`);
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as number) / n;
    };
    // Cold: the first of each in a fresh workerd (both pay for first-time compilation).
    const cold = { floor: await each('/floor/attempt', 1), ours: await each('/ours/attempt', 1) };
    const warm = { floor: [] as number[], ours: [] as number[] };
    const calls = { floor: [] as number[], ours: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      warm.floor.push(await each('/floor/attempt', PER_ROUND));
      warm.ours.push(await each('/ours/attempt', PER_ROUND));
      calls.floor.push(await each('/floor/calls', CALLS));
      calls.ours.push(await each('/ours/calls', CALLS));
    }
    return [
      { label: 'trivial attempt, cold', ours: cold.ours, floor: cold.floor },
      { label: 'trivial attempt, warm', ours: median(warm.ours), floor: median(warm.floor) },
      { label: 'one bridged call', ours: median(calls.ours), floor: median(calls.floor) },
    ];
  } finally {
    await worker.stop();
  }
}
