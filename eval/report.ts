/**
 * What an eval run writes for people and tools: the results as JSON (`{ tasks: [{ id, multiStep,
 * arms: { code: { success, inputTokens, outputTokens, turns, calls, ms }, … } }] }`), a summary
 * table in Markdown, and a plot (SVG: input tokens per task, code beside direct, with each arm's
 * success) a person opens in a browser.
 */
import type { ArmName } from './arms/arm.ts';
import type { ArmRun } from './runner.ts';
import type { EvalTask } from './task.ts';

export interface ArmFigures {
  success: boolean;
  why: string;
  inputTokens: number;
  outputTokens: number;
  /** Input and output tokens of each turn, in order. */
  perTurn: { inputTokens: number; outputTokens: number }[];
  turns: number;
  calls: number;
  ms: number;
}

export interface TaskResult {
  id: string;
  prompt: string;
  multiStep: boolean;
  traits: readonly string[];
  arms: Partial<Record<ArmName, ArmFigures>>;
}

export interface EvalResults {
  /** `scripted` (the offline bound), a model id (live), or `replay of <model>`. */
  model: string;
  mode: 'offline' | 'live' | 'replay';
  date: string;
  tasks: TaskResult[];
}

export function figuresOf(run: ArmRun): ArmFigures {
  const { success, why, inputTokens, outputTokens, perTurn, turns, calls } = run;
  return { success, why, inputTokens, outputTokens, perTurn, turns, calls, ms: Math.round(run.ms) };
}

export function taskResult(task: EvalTask, arms: Partial<Record<ArmName, ArmRun>>): TaskResult {
  return {
    id: task.id,
    prompt: task.prompt,
    multiStep: task.multiStep,
    traits: task.traits,
    arms: Object.fromEntries(Object.entries(arms).map(([arm, run]) => [arm, figuresOf(run)])),
  };
}

/** Input tokens of code mode over those of `against`, when both ran. */
export function ratioOf(task: TaskResult, against: ArmName = 'direct'): number | undefined {
  const code = task.arms.code;
  const other = task.arms[against];
  return code && other && other.inputTokens > 0 ? code.inputTokens / other.inputTokens : undefined;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Code mode against one direct arm on one kind of task: the median ratio and the worst. */
export interface Comparison {
  against: ArmName;
  kind: 'multi-step' | 'single call';
  tasks: number;
  median: number;
  worst: number;
  worstTask: string;
}

export interface Summary {
  /** Tasks that succeeded, per arm that ran. */
  succeeded: Partial<Record<ArmName, number>>;
  tasks: number;
  comparisons: Comparison[];
}

function compare(results: EvalResults, against: ArmName, kind: Comparison['kind']): Comparison {
  const ratios = results.tasks
    .filter((task) => task.multiStep === (kind === 'multi-step'))
    .map((task) => ({ id: task.id, ratio: ratioOf(task, against) }))
    .filter((row): row is { id: string; ratio: number } => row.ratio !== undefined);
  const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a), {
    id: '',
    ratio: Number.NEGATIVE_INFINITY,
  });
  return {
    against,
    kind,
    tasks: ratios.length,
    median: median(ratios.map((row) => row.ratio)),
    worst: ratios.length > 0 ? worst.ratio : Number.NaN,
    worstTask: worst.id,
  };
}

export function summarize(results: EvalResults): Summary {
  const succeeded: Partial<Record<ArmName, number>> = {};
  for (const task of results.tasks)
    for (const [arm, figures] of Object.entries(task.arms) as [ArmName, ArmFigures][])
      succeeded[arm] = (succeeded[arm] ?? 0) + (figures.success ? 1 : 0);
  const comparisons = (['direct', 'direct-needed'] as const)
    .flatMap((against) =>
      (['multi-step', 'single call'] as const).map((kind) => compare(results, against, kind)),
    )
    .filter((comparison) => comparison.tasks > 0);
  return { succeeded, tasks: results.tasks.length, comparisons };
}

const n = (value: number | undefined) => (value === undefined ? '' : value.toLocaleString('en-US'));
const mark = (figures: ArmFigures | undefined) =>
  figures === undefined ? '–' : figures.success ? 'yes' : 'NO';
const ratio = (value: number | undefined) => (value === undefined ? '' : value.toFixed(2));
/** `62% fewer` / `12% more`: what code mode reads against a direct arm. */
const fewer = (value: number) =>
  value <= 1 ? `${Math.round((1 - value) * 100)}% fewer` : `${Math.round((value - 1) * 100)}% more`;

/** One sentence per comparison: the median and the worst case. */
export function comparisonLine(comparison: Comparison): string {
  const { against, kind, tasks, median: mid, worst, worstTask } = comparison;
  return `${kind === 'multi-step' ? 'Multi-step' : 'Single-call'} tasks (${tasks}) against ${against}: code mode reads ${fewer(mid)} input tokens at the median (ratio ${mid.toFixed(2)}), ${fewer(worst)} in the worst case (${worstTask}, ${worst.toFixed(2)}).`;
}

/** The summary table (Markdown): one row per task, then the totals. */
export function markdownTable(results: EvalResults): string {
  const rows = [
    '| task | multi-step | success: code / direct / direct-needed / hub-direct | input tokens: code | direct | code/direct | direct-needed | code/direct-needed | hub-direct | turns: code / direct |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const task of results.tasks) {
    const { code, direct } = task.arms;
    const needed = task.arms['direct-needed'];
    const hub = task.arms['hub-direct'];
    rows.push(
      `| ${task.id} | ${task.multiStep ? 'yes' : 'no'} | ${mark(code)} / ${mark(direct)} / ${mark(needed)} / ${mark(hub)} | ${n(code?.inputTokens)} | ${n(direct?.inputTokens)} | ${ratio(ratioOf(task))} | ${n(needed?.inputTokens)} | ${ratio(ratioOf(task, 'direct-needed'))} | ${n(hub?.inputTokens)} | ${code?.turns ?? ''} / ${direct?.turns ?? ''} |`,
    );
  }
  const summary = summarize(results);
  const succeeded = Object.entries(summary.succeeded)
    .map(([arm, count]) => `${arm} ${count}/${summary.tasks}`)
    .join(', ');
  return [
    `Model: ${results.model} (${results.mode}), ${results.date}.`,
    '',
    ...rows,
    '',
    `Succeeded: ${succeeded}.`,
    '',
    ...summary.comparisons.map((comparison) => `- ${comparisonLine(comparison)}`),
    '',
  ].join('\n');
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The plot: per task, input tokens of code and direct as bars (log scale), each arm's success. */
export function svgPlot(results: EvalResults): string {
  const row = 26;
  const left = 230;
  const width = 980;
  const plot = width - left - 90;
  const top = 40;
  const height = top + row * results.tasks.length + 30;
  const all = results.tasks.flatMap((task) =>
    [task.arms.code?.inputTokens, task.arms.direct?.inputTokens].filter((v): v is number => (v ?? 0) > 0),
  );
  const max = Math.log10(Math.max(10, ...all));
  const x = (tokens: number) => (tokens <= 1 ? 0 : (Math.log10(tokens) / max) * plot);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="10" y="18" font-size="14" font-weight="600">Input tokens per task (log scale), ${escapeXml(results.model)} (${results.mode}): code mode (blue) and direct (orange); success ✓ / failure ✗</text>`,
  ];
  results.tasks.forEach((task, i) => {
    const y = top + i * row;
    parts.push(`<text x="10" y="${y + 14}">${escapeXml(task.id)}${task.multiStep ? '' : ' (1 call)'}</text>`);
    for (const [k, arm, color] of [
      [0, 'code', '#2563eb'],
      [1, 'direct', '#ea580c'],
    ] as const) {
      const figures = task.arms[arm];
      if (!figures) continue;
      const w = x(figures.inputTokens);
      const by = y + k * 11;
      parts.push(`<rect x="${left}" y="${by}" width="${w.toFixed(1)}" height="10" fill="${color}"/>`);
      parts.push(
        `<text x="${(left + w + 4).toFixed(1)}" y="${by + 9}" font-size="10">${n(figures.inputTokens)} ${figures.success ? '✓' : '✗'}</text>`,
      );
    }
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
