/**
 * One hostile source cannot stall everyone (issue #11, part 3). Two measurements, each against a
 * baseline taken in the same run:
 *
 * - **In-process answers.** The store holds the 24 corpus sources and the costliest tool list the
 *   limits let through (test/fixtures/hostile-tools.ts worstLegalTools: a 16,384-letter word, a
 *   schema doubling ten times, 386 tools of made-up words with 120-letter names, 512 KB). Each worst
 *   `describe` and `search` is timed against a normal corpus answer: the median single-tool
 *   describe, and the slowest corpus describe (a whole namespace, firecrawl). "Cold" answers
 *   follow a write to the store, so manifests are read again and typegen's models rebuilt.
 * - **`/healthz` under load.** `hub serve --http` on a temp hub that added the hostile stdio server
 *   twice through `hub add` (its hostile list, and its worst legal list); `/healthz` latency while
 *   three clients describe the worst namespace over and over, against `/healthz` idle. (The first
 *   describe of a process loads the o200k encoder, once; it is timed apart.)
 *
 * Nothing here asserts a time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lookup } from '../engine/lookup.ts';
import { buildManifestWithNotices } from '../engine/manifest.ts';
import { openLocalStore } from '../local/open-store.ts';
import { localWording } from '../local/wording.ts';
import { worstLegalTools } from '../test/fixtures/hostile-tools.ts';
import { cli, hubHome, REPO, startServe, tempHome } from '../test/node/cli-process.ts';
import { httpClient } from '../test/node/surface-fixture.ts';
import { storeSources } from '../test/stored-sources.ts';
import { loadManifests } from './corpus.ts';
import { elapsed, fmt, median, percentile, table, time } from './measure.ts';

export interface Figure {
  label: string;
  baselineLabel: string;
  /** Milliseconds. */
  ours: number;
  baseline: number;
}

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const SERVER = [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test/fixtures/servers/hostile-server.ts'),
];
const REPEAT = 15;

/** p50 of `run` over REPEAT runs after one warm-up; with `cold`, a store write before each. */
function p50(run: () => unknown, cold?: () => void): number {
  run();
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    cold?.();
    samples.push(time(run));
  }
  return median(samples);
}

/** Worst legal answers against normal corpus answers, in one process. */
export async function answers(): Promise<Figure[]> {
  const { home, remove } = tempHome();
  const local = openLocalStore(join(home, 'hub.db'), 0);
  try {
    const corpus = await loadManifests();
    const worst = await buildManifestWithNotices({
      namespace: 'worst',
      fetchedAt: 1,
      tools: worstLegalTools(),
    });
    if (worst.notices.length > 0) throw new Error(`the worst legal list is not legal: ${worst.notices[0]}`);
    storeSources(local.store, [...corpus, worst.manifest]);
    const lookup = new Lookup(local.store, localWording);
    // A write to any cached record makes the store read manifests again (as another process's does).
    let n = 0;
    const touch = () =>
      local.store.putConnection({
        namespace: 'worst',
        name: `c${n++ % 2}`,
        isDefault: false,
        secrets: [],
        createdAt: 0,
      });
    lookup.search({ query: 'warm the index' });

    const singles = corpus.flatMap((m) =>
      m.tools.slice(0, 2).map((tool) => p50(() => lookup.describe([tool.address]))),
    );
    const normal = median(singles);
    const slowest = p50(() => lookup.describe(['firecrawl']));
    const search = p50(() => lookup.search({ query: 'create an issue in a repository' }));
    const firstOf = (name: string) => worst.manifest.tools.find((t) => t.name === name)?.address ?? '';
    const worstTools = worst.manifest.tools.slice(10, 20).map((tool) => tool.address);
    const listWorst = () => lookup.search({ query: '', namespace: 'worst', limit: 25 });
    const worstWords = worst.manifest.tools[5]?.description?.slice(0, 60) ?? '';
    const baselines = {
      slowest: ['slowest corpus describe', slowest],
      tool: ['median corpus tool', normal],
      search: ['corpus search', search],
    } as const;
    const rows: [string, () => unknown, (() => void) | undefined, keyof typeof baselines][] = [
      ['describe worst namespace', () => lookup.describe(['worst']), undefined, 'slowest'],
      ['describe worst namespace, cold', () => lookup.describe(['worst']), touch, 'slowest'],
      ['describe 16,384-letter word', () => lookup.describe([firstOf('one_word')]), undefined, 'tool'],
      ['describe doubling schema', () => lookup.describe([firstOf('dag')]), undefined, 'tool'],
      ['describe 10 worst tools', () => lookup.describe(worstTools), undefined, 'tool'],
      ['describe 10 worst tools, cold', () => lookup.describe(worstTools), touch, 'tool'],
      ['search: list worst namespace (25)', listWorst, undefined, 'search'],
      ['search: list worst namespace, cold', listWorst, touch, 'search'],
      ['search: worst words', () => lookup.search({ query: worstWords }), undefined, 'search'],
    ];
    return rows.map(([label, answer, cold, against]) => {
      const [baselineLabel, baseline] = baselines[against];
      return { label, ours: p50(answer, cold), baselineLabel, baseline };
    });
  } finally {
    local.close();
    remove();
  }
}

/** `/healthz` latency while three clients describe the worst legal namespace, against idle. */
export async function healthz(): Promise<Figure[]> {
  // A hub made as `hub init` makes it: `hub add` adds to a hub, it makes none.
  const { home, remove } = hubHome();
  const server = await (async () => {
    for (const [namespace, env] of [
      ['hostile', []],
      ['worst', ['--env', 'HOSTILE_TOOLS=worst-legal']],
    ] as const) {
      const added = cli(home, ['hub', 'add', '--yes', '--namespace', namespace, ...env, '--', ...SERVER]);
      if (added.status !== 0) throw new Error(`hub add ${namespace} failed: ${added.stderr}`);
    }
    return startServe(home);
  })();
  try {
    const token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
    const health = () =>
      elapsed(async () => {
        const response = await fetch(`${server.url}/healthz`);
        await response.text();
      });
    const samples = async (count: number) => {
      const found: number[] = [];
      for (let i = 0; i < count; i++) found.push(await health());
      return found;
    };
    // The first describe of a process loads the o200k encoder (once): timed apart, then out of the way.
    const first = await httpClient(server.url, token, 'auto');
    const describeWorst = () => first.callTool({ name: 'describe', arguments: { targets: ['worst'] } });
    const cold = await elapsed(describeWorst);
    const after: number[] = [];
    for (let i = 0; i < 20; i++) after.push(await elapsed(describeWorst));
    const warm = median(after);
    await first.close();
    await samples(20);
    const idle = await samples(200);
    const clients = await Promise.all([0, 1, 2].map(() => httpClient(server.url, token, 'auto')));
    let stop = false;
    let described = 0;
    const loops = clients.map(async (client, i) => {
      const targets = [['worst'], ['hostile'], ['worst', 'hostile']][i] ?? ['worst'];
      while (!stop) {
        const answer = await client.callTool({ name: 'describe', arguments: { targets } });
        if (answer.isError) throw new Error(`describe failed: ${JSON.stringify(answer).slice(0, 300)}`);
        described++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const loaded = await samples(200);
    stop = true;
    await Promise.all(loops);
    await Promise.all(clients.map((client) => client.close()));
    return [
      {
        label: 'first describe of the worst namespace in a fresh serve (encoder loads)',
        ours: cold,
        baselineLabel: 'p50 of the next 20',
        baseline: warm,
      },
      {
        label: '/healthz p50, 3 hostile describes running',
        ours: median(loaded),
        baselineLabel: 'idle p50',
        baseline: median(idle),
      },
      {
        label: '/healthz p99, 3 hostile describes running',
        ours: percentile(loaded, 99),
        baselineLabel: 'idle p99',
        baseline: percentile(idle, 99),
      },
      {
        label: `(${described} describes answered meanwhile)`,
        ours: Math.max(...loaded),
        baselineLabel: 'slowest /healthz, idle',
        baseline: Math.max(...idle),
      },
    ];
  } finally {
    await server.stop();
    remove();
  }
}

export function format(figures: readonly Figure[]): string {
  return table([
    ['hostile source (ms)', 'ours', 'baseline', 'ours/baseline'],
    ...figures.map((f) => [
      `${f.label} / ${f.baselineLabel}`,
      fmt(f.ours),
      fmt(f.baseline),
      `${fmt(f.ours / f.baseline, 2)}×`,
    ]),
  ]);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  console.log(format([...(await answers()), ...(await healthz())]));
}
