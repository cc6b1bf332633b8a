/**
 * Timing helpers for the benchmarks: wall-clock samples with `performance.now()`, medians and
 * percentiles, and a plain-text table. Two contenders are always measured in the same process,
 * interleaved, so machine noise falls on both and their ratio is what gets reported.
 */

/** Milliseconds `run` took. */
export function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** Milliseconds the promise `run` returns took to settle. */
export async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** The `p`th percentile (0–100) of `samples`, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** `value` with `digits` significant figures, as a short string. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 6));
}

/** Rows of cells as a left-aligned table, columns two spaces apart. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `ours` and `baseline` `times` times each after one warm-up of each, alternating which goes
 * first, so machine noise falls on both: the median of each.
 */
export async function alternated(
  times: number,
  ours: () => Promise<number>,
  baseline: () => Promise<number>,
): Promise<{ ours: number; baseline: number }> {
  await ours();
  await baseline();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < times; i++) {
    if (i % 2 === 0) {
      a.push(await ours());
      b.push(await baseline());
    } else {
      b.push(await baseline());
      a.push(await ours());
    }
  }
  return { ours: median(a), baseline: median(b) };
}
