/**
 * Ranking quality on the real corpus (397 tools, 24 sources), measured as MRR and recall@k:
 *
 * - the development intents (test/fixtures/corpus/queries-dev.jsonl), which the ranking was tuned on:
 *   the bar is the target;
 * - the held-out intents (test/fixtures/search-intents.jsonl), written before any tuning and
 *   never tuned on: the honest measure of intents the hub has never seen. Their bar sits just
 *   under what the ranking achieves, so a change that generalizes worse fails here;
 * - the outcome development intents (test/fixtures/search-outcomes-dev.jsonl): requests phrased
 *   as outcomes ("let the author know the fix looks good"), tuned on; floors under what the
 *   ranking measures. The outcome untuned set (search-outcomes-untuned.jsonl) is only measured,
 *   in `npm run bench`, never pinned or tuned on;
 * - the frozen sets of issue #35 (action- and outcome-phrased), never tuned on: floors under
 *   what the ranking measures.
 *
 * Numbers against MiniSearch are in `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../engine/contracts/sources.ts';
import { SearchIndex } from '../../engine/search/index.ts';
import { corpusManifests } from '../corpus.ts';
import { type Intent, measure, parseIntents, type Quality } from '../search-quality.ts';

const DEV = new URL('../fixtures/corpus/queries-dev.jsonl', import.meta.url);
const HELD_OUT = new URL('../fixtures/search-intents.jsonl', import.meta.url);
const OUTCOME_DEV = new URL('../fixtures/search-outcomes-dev.jsonl', import.meta.url);

let manifests: Manifest[];
let index: SearchIndex;

beforeAll(async () => {
  manifests = await corpusManifests();
  index = SearchIndex.build(manifests);
});

function quality(intents: readonly Intent[]): Quality {
  return measure(intents, (query) =>
    index.query(query, { limit: 25 }).hits.map((hit) => hit.document.address),
  );
}

/** The intents not answered first, for a failure message that says what regressed. */
function misses(q: Quality): string {
  return q.outcomes
    .filter((o) => o.rank !== 1)
    .map((o) => `  ${o.rank ?? '-'}  ${o.query}  ->  ${o.top.slice(0, 3).join(', ')}`)
    .join('\n');
}

describe('search quality: development intents', () => {
  it('resolves every expected tool to an address of the corpus', () => {
    const intents = parseIntents(readFileSync(DEV, 'utf8'), manifests);
    expect(intents).toHaveLength(50);
  });

  it('ranks an expected tool first nearly always, and always in the first 8', () => {
    const q = quality(parseIntents(readFileSync(DEV, 'utf8'), manifests));
    expect(q.mrr, misses(q)).toBeGreaterThanOrEqual(0.95);
    expect(q.recallAt1, misses(q)).toBeGreaterThanOrEqual(0.92);
    expect(q.recallAt8, misses(q)).toBe(1);
  });
});

describe('search quality: held-out intents', () => {
  it('holds about 40 intents, each with tools that exist', () => {
    const intents = parseIntents(readFileSync(HELD_OUT, 'utf8'), manifests);
    expect(intents.length).toBeGreaterThanOrEqual(40);
  });

  it('stays at what it measured with service kinds (MRR 0.711, R@1 0.609, R@8 0.891; 0.575 when written)', () => {
    const q = quality(parseIntents(readFileSync(HELD_OUT, 'utf8'), manifests));
    expect(q.mrr, misses(q)).toBeGreaterThanOrEqual(0.68);
    expect(q.recallAt1, misses(q)).toBeGreaterThanOrEqual(0.58);
    expect(q.recallAt8, misses(q)).toBeGreaterThanOrEqual(0.87);
  });
});

describe('search quality: outcome development intents', () => {
  it('holds at least 60 intents, each with tools that exist', () => {
    const intents = parseIntents(readFileSync(OUTCOME_DEV, 'utf8'), manifests);
    expect(intents.length).toBeGreaterThanOrEqual(60);
  });

  it('stays at what service kinds and questions reached (MRR 0.585, R@1 0.419, R@8 0.887)', () => {
    const q = quality(parseIntents(readFileSync(OUTCOME_DEV, 'utf8'), manifests));
    expect(q.mrr, misses(q)).toBeGreaterThanOrEqual(0.55);
    expect(q.recallAt1, misses(q)).toBeGreaterThanOrEqual(0.39);
    expect(q.recallAt8, misses(q)).toBeGreaterThanOrEqual(0.86);
  });
});

/**
 * The frozen sets of issue #35, written on 2026-12-07 before its ranking changes by a writer who saw
 * only the tool lists, and never tuned on: floors just under what the ranking measures, so a change
 * that generalizes worse fails here. Before the changes: actions MRR 0.849, R@1 0.761, R@8 0.979;
 * outcomes MRR 0.211, R@1 0.119, R@8 0.388.
 */
describe('search quality: the frozen sets', () => {
  const ACTIONS = new URL('../fixtures/search-actions-frozen.jsonl', import.meta.url);
  const OUTCOMES = new URL('../fixtures/search-outcomes-frozen.jsonl', import.meta.url);

  it('holds at least 60 action-phrased and 40 outcome-phrased intents, each with tools that exist', () => {
    expect(parseIntents(readFileSync(ACTIONS, 'utf8'), manifests).length).toBeGreaterThanOrEqual(60);
    expect(parseIntents(readFileSync(OUTCOMES, 'utf8'), manifests).length).toBeGreaterThanOrEqual(40);
  });

  it('stays at what it measured on the action-phrased set (MRR 0.885, R@1 0.810, R@8 0.986)', () => {
    const q = quality(parseIntents(readFileSync(ACTIONS, 'utf8'), manifests));
    expect(q.mrr, misses(q)).toBeGreaterThanOrEqual(0.87);
    expect(q.recallAt1, misses(q)).toBeGreaterThanOrEqual(0.79);
    expect(q.recallAt8, misses(q)).toBeGreaterThanOrEqual(0.97);
  });

  it('stays at what it measured on the outcome-phrased set (MRR 0.309, R@1 0.209, R@8 0.522)', () => {
    const q = quality(parseIntents(readFileSync(OUTCOMES, 'utf8'), manifests));
    expect(q.mrr, misses(q)).toBeGreaterThanOrEqual(0.29);
    expect(q.recallAt1, misses(q)).toBeGreaterThanOrEqual(0.19);
    expect(q.recallAt8, misses(q)).toBeGreaterThanOrEqual(0.5);
  });
});

/**
 * The second development sets (90 action-phrased, 70 outcome-phrased), written 2026-12-07 after the
 * frozen ones by a writer who saw only the tool lists, and tuned on: floors under what they measure.
 */
describe('search quality: the second development sets', () => {
  const ACTIONS = new URL('../fixtures/search-actions-dev2.jsonl', import.meta.url);
  const OUTCOMES = new URL('../fixtures/search-outcomes-dev2.jsonl', import.meta.url);

  it('stays at what it measured (actions MRR 0.920, R@1 0.867; outcomes MRR 0.427, R@8 0.657)', () => {
    const actions = quality(parseIntents(readFileSync(ACTIONS, 'utf8'), manifests));
    expect(actions.mrr, misses(actions)).toBeGreaterThanOrEqual(0.9);
    expect(actions.recallAt1, misses(actions)).toBeGreaterThanOrEqual(0.84);
    const outcomes = quality(parseIntents(readFileSync(OUTCOMES, 'utf8'), manifests));
    expect(outcomes.mrr, misses(outcomes)).toBeGreaterThanOrEqual(0.4);
    expect(outcomes.recallAt8, misses(outcomes)).toBeGreaterThanOrEqual(0.63);
  });
});
