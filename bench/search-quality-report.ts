/**
 * The quality half of the search benchmark alone (no speed runs), for quick iteration on the
 * development sets: `node bench/search-quality-report.ts [--ablation]`.
 */
import { loadIntents, loadManifests } from './corpus.ts';
import { qualityRows } from './search.bench.ts';
import { ablation } from './search-ablation.ts';

const manifests = await loadManifests();
const intents = loadIntents(manifests);
for (const row of qualityRows(manifests, intents)) {
  console.log(
    `${row.label.padEnd(28)} ${row.ours.toFixed(3)}  ${row.minisearch.toFixed(3)}  ${(row.bm25 ?? Number.NaN).toFixed(3)}`,
  );
}
if (process.argv.includes('--ablation')) {
  for (const row of ablation(
    manifests,
    [...intents.dev, ...intents.actionsDev2],
    [...intents.outcomeDev, ...intents.outcomesDev2],
  )) {
    const f = (n: number) => n.toFixed(3);
    console.log(
      `${row.label.padEnd(40)} ${f(row.dev.mrr)} ${f(row.dev.recallAt8)} | ${f(row.outcomeDev.mrr)} ${f(row.outcomeDev.recallAt1)} ${f(row.outcomeDev.recallAt8)}`,
    );
  }
}
