/**
 * The invariant suite's load (test/invariants/load.ts) timed: p50 and p99 of each operation with
 * 200 runs over four `serve --stdio` processes and one `serve --http` (one killed midway), against
 * the same operations one at a time on one process of an idle hub, measured in the same run.
 * Nothing here asserts a time.
 */

import { type LoadReport, type Operation, runLoad } from '../test/invariants/load.ts';
import { fmt, percentile, table } from './measure.ts';

export interface LoadRow {
  operation: Operation;
  idle: { p50: number; p99: number; samples: number };
  loaded: { p50: number; p99: number; samples: number };
}

export async function run(): Promise<LoadRow[]> {
  // Idle: the http lane and one stdio lane, one run at a time each.
  const idle = await runLoad({ runs: 20, stdio: 1, perLane: 1 });
  const loaded = await runLoad({ runs: 200, stdio: 4, perLane: 2, crashAfter: 100 });
  const stats = (report: LoadReport, operation: Operation) => {
    const samples = report.timings[operation];
    return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
  };
  return (Object.keys(loaded.timings) as Operation[]).map((operation) => ({
    operation,
    idle: stats(idle, operation),
    loaded: stats(loaded, operation),
  }));
}

export function format(rows: readonly LoadRow[]): string {
  return table([
    ['operation (ms)', 'idle p50', 'idle p99', 'loaded p50', 'loaded p99', 'p50 loaded/idle', 'samples'],
    ...rows.map((row) => [
      row.operation,
      fmt(row.idle.p50),
      fmt(row.idle.p99),
      fmt(row.loaded.p50),
      fmt(row.loaded.p99),
      `${fmt(row.loaded.p50 / row.idle.p50, 2)}×`,
      `${row.idle.samples} / ${row.loaded.samples}`,
    ]),
  ]);
}
