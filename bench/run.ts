/**
 * `npm run bench`: runs the benchmarks (search, the sandbox, startup, the first search of a session, the MCP surface, then a hostile source, scrubbing, many attempts
 * at once, the invariant suite's load) and prints each as a compact table,
 * every figure beside its baseline measured in the same run and the ratio between them. Nothing here asserts a
 * time; tests never do either (design: Tests).
 */
import { availableParallelism } from 'node:os';
import { run as attemptsBench, format as formatAttempts } from './attempts.bench.ts';
import { run as firstSearchBench, format as formatFirstSearch } from './first-search.bench.ts';
import {
  format as formatHostile,
  answers as hostileAnswers,
  healthz as hostileHealthz,
} from './hostile.bench.ts';
import { format as formatLoad, run as loadBench } from './load.bench.ts';
import { fmt, table } from './measure.ts';
import { format as formatSandbox, run as sandboxBench } from './sandbox.bench.ts';
import { format as formatScrub, run as scrubBench } from './scrub.bench.ts';
import { searchBench } from './search.bench.ts';
import { format as formatStartup, run as startupBench } from './startup.bench.ts';
import { format as formatSurface, run as surfaceBench } from './surface.bench.ts';

const report = await searchBench();

console.log(
  `search: ${report.tools} tools from ${report.sources} sources; intents: ${report.intents.dev} dev, ` +
    `${report.intents.heldOut} held-out, ${report.intents.outcomeDev} outcome dev, ` +
    `${report.intents.outcomeUntuned} outcome untuned, ${report.intents.actionsFrozen} actions frozen, ` +
    `${report.intents.outcomesFrozen} outcomes frozen, ${report.intents.actionsDev2} actions dev 2, ` +
    `${report.intents.outcomesDev2} outcomes dev 2; baselines MiniSearch with default options and ` +
    "plain BM25 (the method of the clients' own tool search, bench/plain-bm25.ts)",
);
console.log(`node ${process.version}, ${availableParallelism()} CPUs\n`);

console.log(
  table([
    ['quality', 'ours', 'MiniSearch', 'plain BM25', 'ours/plain BM25'],
    ...report.quality.map((row) => [
      row.label,
      row.ours.toFixed(3),
      row.minisearch.toFixed(3),
      (row.bm25 ?? Number.NaN).toFixed(3),
      `${fmt(row.ours / (row.bm25 ?? Number.NaN), 2)}×`,
    ]),
  ]),
);
console.log();
console.log(
  table([
    ['ablation (development sets)', 'dev MRR', 'dev R@8', 'outcome MRR', 'outcome R@1', 'outcome R@8'],
    ...report.ablation.map((row) => [
      row.label,
      row.dev.mrr.toFixed(3),
      row.dev.recallAt8.toFixed(3),
      row.outcomeDev.mrr.toFixed(3),
      row.outcomeDev.recallAt1.toFixed(3),
      row.outcomeDev.recallAt8.toFixed(3),
    ]),
  ]),
);
console.log();
console.log(
  table([
    ['speed (ms)', 'ours', 'MiniSearch', 'ours/MiniSearch'],
    ...report.speed.map((row) => [
      row.label,
      fmt(row.ours),
      fmt(row.minisearch),
      `${fmt(row.ours / row.minisearch, 2)}×`,
    ]),
  ]),
);

console.log('\nsandbox: each figure against its floor measured in the same run');
console.log(formatSandbox(await sandboxBench()));

console.log(
  '\nstartup: spawn → the first tools/list answer of hub serve --stdio (a fresh hub), and --version to exit, ' +
    'each against server-memory spawned to its first tools/list, interleaved; p50 of 15 spawns each',
);
console.log(formatStartup(await startupBench()));

console.log(
  '\nfirst search: a new hub serve --stdio session on a hub of the 24 corpus servers, with the search documents ' +
    'the store keeps against the same hub with them dropped before each spawn (the index built from the tool lists); ' +
    'p50 of 7 spawns each, alternating',
);
console.log(formatFirstSearch(await firstSearchBench()));

console.log(
  '\nsurface: the real hub over stdio (hub serve --stdio, server-memory as a source), each figure against its ' +
    'baseline in the same run; then the fixed cost of the code-mode surface and of a direct-mode profile',
);
console.log(formatSurface(await surfaceBench()));

console.log(
  '\nhostile source: the costliest tool list the limits let through (512 KB), against normal corpus answers; ' +
    '/healthz on hub serve --http while three clients describe it, against idle',
);
console.log(formatHostile([...(await hostileAnswers()), ...(await hostileHealthz())]));

console.log(
  '\nscrubbing: 1 MB of text, the whole scrubber against its forms pass alone (the scrubber before it ' +
    'undid escapes), interleaved; median of 20',
);
console.log(formatScrub(scrubBench()));

console.log(
  '\nattempts at once: peak RSS of N executes awaiting a 1 s timer, without and with the attempt cap',
);
console.log(formatAttempts(attemptsBench()));

console.log(
  '\nunder load: 200 runs that each ask, decided from the terminal and the page, over four serve --stdio and one ' +
    'serve --http (one stdio killed midway), against one run at a time on an idle hub',
);
console.log(formatLoad(await loadBench()));
