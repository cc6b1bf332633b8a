/**
 * The real tool corpus for the benchmark, read from test/fixtures/corpus with the
 * file system (test/corpus.ts does the same through Vite's glob for the tests), plus the two
 * intent sets and a replicated corpus of any size for load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Manifest } from '../engine/contracts/sources.ts';
import { buildManifest, type ListedTool } from '../engine/manifest.ts';
import { type Intent, parseIntents } from '../test/search-quality.ts';

const CORPUS = fileURLToPath(new URL('../test/fixtures/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url));

interface CorpusFile {
  namespace: string;
  tools: ListedTool[];
}

/** Every corpus source's manifest, sorted by file name (as test/corpus.ts orders them). */
export async function loadManifests(): Promise<Manifest[]> {
  const files = readdirSync(`${CORPUS}tools`)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return Promise.all(
    files.map((name) => {
      const file = JSON.parse(readFileSync(`${CORPUS}tools/${name}`, 'utf8')) as CorpusFile;
      return buildManifest({ namespace: file.namespace, fetchedAt: 0, tools: file.tools });
    }),
  );
}

/**
 * The intent sets, resolved against `manifests`: action-phrased development intents and the
 * held-out ones, outcome-phrased development intents and the untuned ones (never tuned on), and
 * the two frozen sets of issue #35 (action- and outcome-phrased, written 2026-12-07 before its
 * ranking changes by a writer who saw only the tool lists; never tuned on).
 */
export interface IntentSets {
  dev: Intent[];
  heldOut: Intent[];
  outcomeDev: Intent[];
  outcomeUntuned: Intent[];
  actionsFrozen: Intent[];
  outcomesFrozen: Intent[];
  /** Second development sets (written 2026-12-07 after the frozen ones, from the tool lists; tuned on). */
  actionsDev2: Intent[];
  outcomesDev2: Intent[];
}

export function loadIntents(manifests: readonly Manifest[]): IntentSets {
  const read = (path: string) => parseIntents(readFileSync(path, 'utf8'), manifests);
  return {
    dev: read(`${CORPUS}queries-dev.jsonl`),
    heldOut: read(`${FIXTURES}search-intents.jsonl`),
    outcomeDev: read(`${FIXTURES}search-outcomes-dev.jsonl`),
    outcomeUntuned: read(`${FIXTURES}search-outcomes-untuned.jsonl`),
    actionsFrozen: read(`${FIXTURES}search-actions-frozen.jsonl`),
    outcomesFrozen: read(`${FIXTURES}search-outcomes-frozen.jsonl`),
    actionsDev2: read(`${FIXTURES}search-actions-dev2.jsonl`),
    outcomesDev2: read(`${FIXTURES}search-outcomes-dev2.jsonl`),
  };
}

/**
 * At least `count` tools: the corpus copied under numbered namespaces (`github_7`), addresses
 * rewritten to match, cut to exactly `count`.
 */
export function replicate(manifests: readonly Manifest[], count: number): Manifest[] {
  const result: Manifest[] = [];
  let tools = 0;
  for (let copy = 0; tools < count; copy++) {
    for (const manifest of manifests) {
      if (tools >= count) break;
      const namespace = copy === 0 ? manifest.namespace : `${manifest.namespace}_${copy}`;
      const kept = manifest.tools.slice(0, count - tools).map((tool) => ({
        ...tool,
        address: `${namespace}${tool.address.slice(manifest.namespace.length)}`,
      }));
      tools += kept.length;
      result.push({ ...manifest, namespace, tools: kept });
    }
  }
  return result;
}
