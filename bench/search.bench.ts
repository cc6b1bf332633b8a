/**
 * The search benchmark: our index against MiniSearch (default options, over tool names,
 * descriptions and parameter names and descriptions) on the same documents and the same queries,
 * in the same process.
 *
 * - Quality: MRR, recall@1 and recall@8 on the development intents (tuned on) and the held-out
 *   intents (never tuned on); and an ablation of the ranking's choices on the development intents.
 * - Speed, at the real corpus (397 tools) and at 10,000 tools (the corpus copied under numbered
 *   namespaces, `github_7`): build time (median of several builds), query latency p50 and p99
 *   over every intent's query, repeated, after one warm-up pass; and refreshing one source
 *   (gitlab2, 118 tools) in a built index. The two engines alternate run by run, so noise from
 *   the machine falls on both, and each figure is reported with its ratio, ours / MiniSearch.
 */
import MiniSearch from 'minisearch';
import type { Manifest } from '../engine/contracts/sources.ts';
import { parameterText } from '../engine/search/document.ts';
import { SearchIndex } from '../engine/search/index.ts';
import { type Intent, measure, type Quality } from '../test/search-quality.ts';
import { type IntentSets, loadIntents, loadManifests, replicate } from './corpus.ts';
import { median, percentile, time } from './measure.ts';
import { plainBm25 } from './plain-bm25.ts';
import { type AblationRow, ablation } from './search-ablation.ts';

interface MiniDoc {
  id: string;
  namespace: string;
  name: string;
  description: string;
  params: string;
}

/** One figure measured for both engines. */
export interface Comparison {
  label: string;
  ours: number;
  minisearch: number;
  /** Quality rows: plain Okapi BM25 (plain-bm25.ts), the method of the clients' own tool search. */
  bm25?: number;
  unit: 'ms' | '';
}

export interface SearchBenchReport {
  tools: number;
  sources: number;
  intents: Record<keyof IntentSets, number>;
  quality: Comparison[];
  ablation: AblationRow[];
  speed: Comparison[];
}

const FIELDS = ['name', 'description', 'params'];
const REFRESHED = 'gitlab2';

function miniDocs(manifests: readonly Manifest[]): MiniDoc[] {
  return manifests.flatMap((manifest) =>
    manifest.tools.map((tool) => {
      const { names, texts } = parameterText(tool.inputSchema);
      return {
        id: tool.address,
        namespace: manifest.namespace,
        name: tool.name,
        description: tool.description ?? '',
        params: [...names, ...texts].join(' '),
      };
    }),
  );
}

function miniBuild(docs: readonly MiniDoc[]): MiniSearch<MiniDoc> {
  const mini = new MiniSearch<MiniDoc>({ fields: FIELDS });
  mini.addAll(docs);
  return mini;
}

export function qualityRows(manifests: Manifest[], intents: IntentSets): Comparison[] {
  const ours = SearchIndex.build(manifests);
  const mini = miniBuild(miniDocs(manifests));
  const rankOurs = (q: string) => ours.query(q, { limit: 25 }).hits.map((hit) => hit.document.address);
  const rankMini = (q: string) => mini.search(q).map((result) => String(result.id));
  const rankBm25 = plainBm25(manifests);
  const rows: Comparison[] = [];
  for (const [set, list] of [
    ['dev', intents.dev],
    ['held-out', intents.heldOut],
    ['outcome dev', intents.outcomeDev],
    ['outcome untuned', intents.outcomeUntuned],
    ['actions frozen', intents.actionsFrozen],
    ['outcomes frozen', intents.outcomesFrozen],
    ['actions dev 2', intents.actionsDev2],
    ['outcomes dev 2', intents.outcomesDev2],
  ] as const satisfies readonly (readonly [string, Intent[]])[]) {
    const a: Quality = measure(list, rankOurs);
    const b: Quality = measure(list, rankMini);
    const c: Quality = measure(list, rankBm25);
    rows.push({ label: `${set} MRR`, ours: a.mrr, minisearch: b.mrr, bm25: c.mrr, unit: '' });
    rows.push({
      label: `${set} recall@1`,
      ours: a.recallAt1,
      minisearch: b.recallAt1,
      bm25: c.recallAt1,
      unit: '',
    });
    rows.push({
      label: `${set} recall@8`,
      ours: a.recallAt8,
      minisearch: b.recallAt8,
      bm25: c.recallAt8,
      unit: '',
    });
  }
  return rows;
}

function speedRows(manifests: Manifest[], queries: readonly string[], size: number): Comparison[] {
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  const corpus = replicate(manifests, size);
  const docs = miniDocs(corpus);
  const builds = size >= 1000 ? 5 : 15;
  const rounds = size >= 1000 ? 10 : 50;

  const buildOurs: number[] = [];
  const buildMini: number[] = [];
  for (let i = 0; i < builds; i++) {
    buildOurs.push(time(() => SearchIndex.build(corpus)));
    buildMini.push(time(() => miniBuild(docs)));
  }

  const ours = SearchIndex.build(corpus);
  const mini = miniBuild(docs);
  for (const q of queries) {
    ours.query(q);
    mini.search(q);
  }
  const queryOurs: number[] = [];
  const queryMini: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      queryOurs.push(time(() => ours.query(q)));
      queryMini.push(time(() => mini.search(q)));
    }
  }

  // Refresh one source in place: our upsert; MiniSearch removes its documents and adds them again.
  const refreshed = corpus.find((m) => m.namespace === REFRESHED) as Manifest;
  const refreshedDocs = docs.filter((doc) => doc.namespace === REFRESHED);
  const refreshOurs: number[] = [];
  const refreshMini: number[] = [];
  for (let i = 0; i < builds; i++) {
    refreshOurs.push(time(() => ours.upsert(refreshed)));
    refreshMini.push(
      time(() => {
        mini.removeAll(refreshedDocs);
        mini.addAll(refreshedDocs);
      }),
    );
  }

  return [
    { label: `${label} build`, ours: median(buildOurs), minisearch: median(buildMini), unit: 'ms' },
    {
      label: `${label} query p50`,
      ours: percentile(queryOurs, 50),
      minisearch: percentile(queryMini, 50),
      unit: 'ms',
    },
    {
      label: `${label} query p99`,
      ours: percentile(queryOurs, 99),
      minisearch: percentile(queryMini, 99),
      unit: 'ms',
    },
    {
      label: `${label} refresh ${REFRESHED} (${refreshed.tools.length} tools)`,
      ours: median(refreshOurs),
      minisearch: median(refreshMini),
      unit: 'ms',
    },
  ];
}

/** Runs the search benchmark: quality on both intent sets, speed at 397 and 10,000 tools. */
export async function searchBench(): Promise<SearchBenchReport> {
  const manifests = await loadManifests();
  const intents = loadIntents(manifests);
  const queries = [...intents.dev, ...intents.heldOut, ...intents.outcomeDev, ...intents.outcomeUntuned].map(
    (intent) => intent.query,
  );
  const tools = manifests.reduce((sum, m) => sum + m.tools.length, 0);
  return {
    tools,
    sources: manifests.length,
    intents: {
      dev: intents.dev.length,
      heldOut: intents.heldOut.length,
      outcomeDev: intents.outcomeDev.length,
      outcomeUntuned: intents.outcomeUntuned.length,
      actionsFrozen: intents.actionsFrozen.length,
      outcomesFrozen: intents.outcomesFrozen.length,
      actionsDev2: intents.actionsDev2.length,
      outcomesDev2: intents.outcomesDev2.length,
    },
    quality: qualityRows(manifests, intents),
    ablation: ablation(
      manifests,
      [...intents.dev, ...intents.actionsDev2],
      [...intents.outcomeDev, ...intents.outcomesDev2],
    ),
    speed: [...speedRows(manifests, queries, tools), ...speedRows(manifests, queries, 10_000)],
  };
}
