/**
 * What each ranking choice is worth: MRR and recall on the development intents (action-phrased:
 * the first set and the second, 140; outcome-phrased: both sets, 132) with the shipped ranking,
 * and with one choice undone at a time. Development intents only: the held-out, untuned and
 * frozen sets are measured once, with the shipped ranking, and never used to choose.
 */
import type { Manifest } from '../engine/contracts/sources.ts';
import type { Field } from '../engine/search/document.ts';
import { DEFAULT_RANKING, type Ranking, SearchIndex } from '../engine/search/index.ts';
import type { SearchIndexOptions } from '../engine/search/search-index.ts';
import { SYNONYM_GROUPS, synonymTable } from '../engine/search/vocabulary.ts';
import { type Intent, measure } from '../test/search-quality.ts';

/** One set's figures under one variant. */
export interface AblationFigures {
  mrr: number;
  recallAt1: number;
  recallAt8: number;
}

export interface AblationRow {
  label: string;
  /** The action-phrased development intents. */
  dev: AblationFigures;
  /** The outcome-phrased development intents. */
  outcomeDev: AblationFigures;
}

const D = DEFAULT_RANKING;

function withField(field: Field, change: Partial<Ranking['fields'][Field]>): Ranking {
  return { ...D, fields: { ...D.fields, [field]: { ...D.fields[field], ...change } } };
}

const VARIANTS: readonly [string, SearchIndexOptions][] = [
  ['as shipped', {}],
  ['no outcome vocabulary (action groups only)', { synonyms: synonymTable(SYNONYM_GROUPS) }],
  ['no stand-in boost (standInBoost 1)', { ranking: { ...D, standInBoost: 1 } }],
  ['standInBoost 3', { ranking: { ...D, standInBoost: 3 } }],
  ...(
    [
      ['no service kinds (kindBoost 0)', { ...D, kindBoost: 0 }],
      ['kinds by person words only (markShare 0)', { ...D, markShare: 0 }],
      ['no lean to a named source (namedBoost 0)', { ...D, namedBoost: 0 }],
      ['questions do not lean to reads (readBoost 0)', { ...D, readBoost: 0 }],
      ['words in values at full weight (valueWeight 1)', { ...D, valueWeight: 1 }],
      ['synonyms at 0.4 (before #35)', { ...D, synonymWeight: 0.4 }],
      ['no synonyms (synonymWeight 0)', { ...D, synonymWeight: 0 }],
      ['synonyms at full weight (1)', { ...D, synonymWeight: 1 }],
      ['no compounds (compoundWeight 0)', { ...D, compoundWeight: 0 }],
      ['name weighted as description (1)', withField('name', { weight: 1 })],
      ['no first-sentence field', withField('summary', { weight: 0 })],
      ['no parameter names', withField('params', { weight: 0 })],
      ['no parameter descriptions', withField('paramText', { weight: 0 })],
      ['no namespace field', withField('namespace', { weight: 0 })],
      ['description b 0.75 (usual default)', withField('description', { b: 0.75 })],
      ['k1 1.2 (before #35)', { ...D, k1: 1.2 }],
      ['k1 2.0', { ...D, k1: 2 }],
    ] as const
  ).map(([label, ranking]): [string, SearchIndexOptions] => [label, { ranking }]),
];

/** Both development sets measured under each variant of the ranking. */
export function ablation(
  manifests: readonly Manifest[],
  dev: readonly Intent[],
  outcomeDev: readonly Intent[],
): AblationRow[] {
  return VARIANTS.map(([label, options]) => {
    const index = SearchIndex.build(manifests, options);
    const figures = (intents: readonly Intent[]): AblationFigures => {
      const q = measure(intents, (query) =>
        index.query(query, { limit: 25 }).hits.map((hit) => hit.document.address),
      );
      return { mrr: q.mrr, recallAt1: q.recallAt1, recallAt8: q.recallAt8 };
    };
    return { label, dev: figures(dev), outcomeDev: figures(outcomeDev) };
  });
}
