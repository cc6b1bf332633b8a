/**
 * Memory of many `execute`s at once (issue #11, part 3: twenty took 1.4 GB, sixty 3.8 GB), with
 * and without the hub's attempt cap, in the same run. Each figure is one child process running N
 * attempts at once, each awaiting a 1 s timer in the guest; its peak RSS (`maxRSS`, worker threads
 * included) is what it reports.
 *
 * - **uncapped**: the attempts straight on a QuickJsSandbox allowed a worker each, as every
 *   `execute` ran before the cap;
 * - **capped**: the same code as N `Runs.execute`s on a local store with the default limits
 *   (`concurrentAttempts` 4: the rest wait, and past `attemptQueueMs` are told busy).
 *
 * Nothing here asserts a time or a size.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isHubError } from '../engine/errors.ts';
import { DEFAULT_LIMITS } from '../engine/limits.ts';
import { Runs } from '../engine/runs/runs.ts';
import type { SandboxHost } from '../engine/sandbox/sandbox.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import { openLocalStore } from '../local/open-store.ts';
import { QuickJsSandbox } from '../local/quickjs/sandbox.ts';
import { localWording } from '../local/wording.ts';
import { fmt, table } from './measure.ts';

const CODE = 'await new Promise((resolve) => setTimeout(resolve, 1000)); return 1;';
const NODE = process.execPath;
const SELF = fileURLToPath(import.meta.url);

interface ChildReport {
  mode: 'uncapped' | 'capped';
  attempts: number;
  peakRssMb: number;
  completed: number;
  busy: number;
  seconds: number;
}

const host: SandboxHost = {
  call: async () => ({ kind: 'value', value: null }),
  lookup: async () => ({ kind: 'value', value: '' }),
};

async function child(mode: ChildReport['mode'], attempts: number): Promise<ChildReport> {
  const started = performance.now();
  let completed = 0;
  let busy = 0;
  if (mode === 'uncapped') {
    const sandbox = new QuickJsSandbox({ poolSize: 2, maxWorkers: 10_000 });
    const outcomes = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        sandbox.run(
          { runId: `run_${i}`, attempt: 1, code: CODE, namespaces: {}, seed: '00', clockOrigin: 0 },
          host,
        ),
      ),
    );
    completed = outcomes.filter((o) => o.status === 'completed').length;
    await sandbox.close();
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'capabilities-attempts-'));
    const local = openLocalStore(join(dir, 'hub.db'), Date.now());
    const sandbox = new QuickJsSandbox({ poolSize: 2 });
    const runs = new Runs({
      wording: localWording,
      store: local.store,
      sandbox,
      clock: systemClock,
      random: cryptoRandom,
      upstream: async () => ({ ok: true, value: null, ms: 0 }),
      lookup: host.lookup,
    });
    const settled = await Promise.allSettled(Array.from({ length: attempts }, () => runs.execute(CODE)));
    completed = settled.filter((s) => s.status === 'fulfilled' && s.value.status === 'completed').length;
    busy = settled.filter((s) => s.status === 'rejected' && isHubError(s.reason, 'unavailable')).length;
    await sandbox.close();
    local.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  return { mode, attempts, peakRssMb: process.resourceUsage().maxRSS / 1024, completed, busy, seconds };
}

function inChild(mode: ChildReport['mode'], attempts: number): ChildReport {
  const ran = spawnSync(
    NODE,
    ['--disable-warning=ExperimentalWarning', SELF, '--child', mode, String(attempts)],
    {
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  if (ran.status !== 0) throw new Error(`the ${mode} child failed: ${ran.stderr}`);
  return JSON.parse(ran.stdout.trim().split('\n').at(-1) ?? '{}') as ChildReport;
}

/** Peak RSS of 20 and 60 attempts at once, uncapped and capped, each in its own process. */
export function run(): ChildReport[] {
  return [20, 60].flatMap((n) => [inChild('uncapped', n), inChild('capped', n)]);
}

export function format(reports: readonly ChildReport[]): string {
  const uncapped = new Map(
    reports.filter((r) => r.mode === 'uncapped').map((r) => [r.attempts, r.peakRssMb]),
  );
  return table([
    ['attempts at once', 'mode', 'peak RSS (MB)', 'capped/uncapped', 'completed', 'busy', 'all done (s)'],
    ...reports.map((r) => [
      String(r.attempts),
      r.mode === 'capped' ? `capped (${DEFAULT_LIMITS.concurrentAttempts})` : 'uncapped',
      fmt(r.peakRssMb),
      r.mode === 'capped' ? `${fmt(r.peakRssMb / (uncapped.get(r.attempts) ?? Number.NaN), 2)}×` : '',
      String(r.completed),
      String(r.busy),
      fmt(r.seconds),
    ]),
  ]);
}

const [flag, mode, count] = process.argv.slice(2);
if (flag === '--child' && (mode === 'uncapped' || mode === 'capped')) {
  console.log(JSON.stringify(await child(mode, Number(count))));
} else if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  console.log(format(run()));
}
