/**
 * The knobs of BM25F and of query expansion. Values were chosen by measuring MRR and recall@k on
 * the development intents (test/fixtures/corpus/queries-dev.jsonl) and taken from the middle of flat
 * regions rather than from single best points; `npm run bench` prints what each choice is worth
 * (an ablation table) next to the held-out measure, which was never tuned on.
 *
 * BM25F (Robertson, Zaragoza & Taylor 2004, "Simple BM25 extension to multiple weighted
 * fields"): each field's term frequency is normalized by that field's length against its
 * average, weighted, and summed into one pseudo-frequency, which saturates once through k1:
 *
 *   tf~(t, d) = Σ_f weight_f · tf(t, d, f) / (1 − b_f + b_f · len(d, f) / avglen_f)
 *   score(t, d) = idf(t) · tf~ / (k1 + tf~),  idf(t) = ln(1 + (N − df + ½) / (df + ½))
 *   score(q, d) = Σ_concepts max_{t ∈ concept} w_t · score(t, d)
 *
 * where a concept is a query word with its synonyms (query.ts), w_t is 1 for the query's own
 * words and compounds and `synonymWeight` for synonyms.
 */
import type { Field } from './document.ts';

/** Weight and length normalization of one field. */
export interface FieldRanking {
  /** How much one occurrence in this field counts against one in the description. */
  weight: number;
  /** 0: length ignored; 1: fully normalized by the field's length against its average. */
  b: number;
}

export interface Ranking {
  fields: Readonly<Record<Field, FieldRanking>>;
  /** Saturation of the pseudo-frequency: how fast repeated matches stop adding. */
  k1: number;
  /** Weight of a synonym from the vocabulary, against 1 for the query's own word. */
  synonymWeight: number;
  /** Weight of adjacent query words joined into one (`who am i` -> whoami). */
  compoundWeight: number;
  /**
   * Multiplies synonym weights for a query word no tool uses (`hear`, `crm` in a
   * corpus without them): nothing exact is there to outrank, so its stand-ins count more.
   */
  standInBoost: number;
  /** A query naming a source (its namespace or server name) multiplies that source's scores by 1 + this. */
  namedBoost: number;
  /** A query asking for a kind of service (service-kinds.ts) multiplies its sources' scores by 1 + this. */
  kindBoost: number;
  /** The share of `kindBoost` for a query naming a kind only by its tools' objects (`pod`). */
  markShare: number;
  /** A question multiplies the scores of tools that only read (reads.ts) by 1 + this. */
  readBoost: number;
  /** Weight of a query word written inside a value (`feature/login`, `config.yaml`), against 1. */
  valueWeight: number;
}

/**
 * The measured defaults. The name carries the most (a tool's name is its most precise claim);
 * the first sentence of the description counts again on top of the whole description; parameter
 * names count half and their descriptions a fifth, enough to tell apart tools that differ only
 * by what they take; the namespace (and server name) counts lightly, with no length
 * normalization since it is always a word or two.
 */
export const DEFAULT_RANKING: Ranking = {
  fields: {
    name: { weight: 4, b: 0.5 },
    summary: { weight: 1, b: 0.5 },
    description: { weight: 1, b: 0.5 },
    params: { weight: 0.5, b: 0.5 },
    paramText: { weight: 0.2, b: 0.75 },
    namespace: { weight: 1, b: 0 },
  },
  k1: 1.6,
  synonymWeight: 0.6,
  compoundWeight: 1,
  standInBoost: 2,
  namedBoost: 0.5,
  kindBoost: 1,
  markShare: 0.5,
  readBoost: 0.3,
  valueWeight: 0.5,
};
