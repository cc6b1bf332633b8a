import { loadIntents, loadManifests } from '/work/wt-search/bench/corpus.ts';
import { SearchIndex, DEFAULT_RANKING } from '/work/wt-search/engine/search/index.ts';
import { measure } from '/work/wt-search/test/search-quality.ts';
const m = await loadManifests(); const i = loadIntents(m);
const rw = Number(process.argv[2] ?? DEFAULT_RANKING.relatedWeight);
const idx = SearchIndex.build(m, { ranking: { ...DEFAULT_RANKING, relatedWeight: rw } });
for (const set of ['dev','outcomeDev'] as const) {
const q = measure(i[set], (s) => idx.query(s, { limit: 25 }).hits.map(h => h.document.address));
console.log(set, rw, q.mrr.toFixed(3), q.recallAt8.toFixed(3));
if (process.argv[3]) for (const o of q.outcomes) if (set==='outcomeDev' && (o.rank ?? 99) > 3) console.log(o.rank, o.query, '->', o.top.slice(0,3).join(' '));
}
