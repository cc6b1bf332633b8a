/**
 * The inverted index under SearchIndex: for each term, the slots (numbered documents) holding it
 * and the term's frequency in each of their fields, plus the collection statistics BM25F needs
 * (live documents, each slot's field lengths, each field's total length).
 *
 * Statistics are exact integer sums, kept current on every add and remove; scores are derived
 * from them only when asked, so the same documents always score the same, whatever order they
 * were added and removed in.
 *
 * Invariants:
 * - a term's posting holds each slot at most once, and no posting is empty;
 * - `contributions(term)` is BM25F's per-document score for the term, computed from the current
 *   statistics: cached per term, and dropped whenever a document is added or removed.
 */
import { FIELDS, type FieldTerms } from './document.ts';
import type { Ranking } from './ranking.ts';

const F = FIELDS.length;

interface Posting {
  slots: number[];
  /** F frequencies per entry of `slots`, field by field. */
  tf: number[];
  /** The serial of the last document added to this posting, to count its repeats in place. */
  added: number;
  /** idf · tf~ / (k1 + tf~) per entry, valid while `generation` is the index's. */
  scores?: Float64Array;
  generation?: number;
}

export class InvertedIndex {
  readonly #ranking: Ranking;
  readonly #postings = new Map<string, Posting>();
  /** Length of each field of each slot: slot * F + field. */
  readonly #lengths: number[] = [];
  readonly #fieldTotals: number[] = new Array<number>(F).fill(0);
  #live = 0;
  /** Serial of the document being added; never reused, unlike slots. */
  #serial = 0;
  /** Bumped on every change; cached scores and normalizers of an older generation are stale. */
  #generation = 0;
  #norms: { generation: number; values: Float64Array } | undefined;

  constructor(ranking: Ranking) {
    this.#ranking = ranking;
  }

  /** True when some document holds `term`. */
  has(term: string): boolean {
    return this.#postings.has(term);
  }

  /** The inverse document frequency of `term`, ln(1 + (N − df + ½) / (df + ½)); 0 when none holds it. */
  idf(term: string): number {
    const df = this.#postings.get(term)?.slots.length ?? 0;
    return df === 0 ? 0 : Math.log(1 + (this.#live - df + 0.5) / (df + 0.5));
  }

  /** Indexes the document in `slot` (which must be free); returns its distinct terms. */
  add(slot: number, fields: FieldTerms): string[] {
    const serial = ++this.#serial;
    const distinct: string[] = [];
    for (let f = 0; f < F; f++) {
      const fieldTerms = fields[f] ?? [];
      this.#lengths[slot * F + f] = fieldTerms.length;
      this.#fieldTotals[f] = (this.#fieldTotals[f] as number) + fieldTerms.length;
      for (const term of fieldTerms) {
        let posting = this.#postings.get(term);
        if (posting === undefined) {
          posting = { slots: [], tf: [], added: 0 };
          this.#postings.set(term, posting);
        }
        if (posting.added !== serial) {
          // The document's first occurrence of the term: a new entry, all frequencies zero.
          posting.added = serial;
          posting.slots.push(slot);
          for (let g = 0; g < F; g++) posting.tf.push(0);
          distinct.push(term);
        }
        const at = posting.tf.length - F + f;
        posting.tf[at] = (posting.tf[at] as number) + 1;
      }
    }
    this.#live++;
    this.#generation++;
    return distinct;
  }

  /** Removes the documents in `slots`, whose distinct terms are `terms`. */
  remove(slots: ReadonlySet<number>, terms: Iterable<string>): void {
    for (const slot of slots) {
      for (let f = 0; f < F; f++) {
        this.#fieldTotals[f] = (this.#fieldTotals[f] as number) - (this.#lengths[slot * F + f] ?? 0);
        this.#lengths[slot * F + f] = 0;
      }
      this.#live--;
    }
    for (const term of terms) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      let kept = 0;
      for (let i = 0; i < posting.slots.length; i++) {
        const slot = posting.slots[i] as number;
        if (slots.has(slot)) continue;
        posting.slots[kept] = slot;
        for (let f = 0; f < F; f++) posting.tf[kept * F + f] = posting.tf[i * F + f] as number;
        kept++;
      }
      if (kept === 0) this.#postings.delete(term);
      posting.slots.length = kept;
      posting.tf.length = kept * F;
    }
    this.#generation++;
  }

  /**
   * The slots holding `term` and, index for index, the term's BM25F score in each:
   * idf · tf~ / (k1 + tf~), tf~ the weighted, length-normalized frequency over the fields.
   */
  contributions(term: string): { slots: readonly number[]; scores: Float64Array } {
    const posting = this.#postings.get(term);
    if (posting === undefined) return { slots: [], scores: new Float64Array(0) };
    if (posting.scores === undefined || posting.generation !== this.#generation) {
      posting.scores = this.#score(posting);
      posting.generation = this.#generation;
    }
    return { slots: posting.slots, scores: posting.scores };
  }

  #score(posting: Posting): Float64Array {
    const norms = this.#normalizers();
    const { k1 } = this.#ranking;
    const df = posting.slots.length;
    const idf = Math.log(1 + (this.#live - df + 0.5) / (df + 0.5));
    const scores = new Float64Array(df);
    for (let i = 0; i < df; i++) {
      const base = (posting.slots[i] as number) * F;
      let tf = 0;
      for (let f = 0; f < F; f++) tf += (posting.tf[i * F + f] as number) * (norms[base + f] as number);
      scores[i] = (idf * tf) / (k1 + tf);
    }
    return scores;
  }

  /** weight_f / (1 − b_f + b_f · len / avglen_f) per slot and field, for this generation. */
  #normalizers(): Float64Array {
    if (this.#norms?.generation === this.#generation) return this.#norms.values;
    const slots = this.#lengths.length / F;
    const values = new Float64Array(this.#lengths.length);
    for (let f = 0; f < F; f++) {
      const { weight, b } = this.#ranking.fields[FIELDS[f] as (typeof FIELDS)[number]];
      const average = this.#live === 0 ? 0 : (this.#fieldTotals[f] as number) / this.#live;
      for (let slot = 0; slot < slots; slot++) {
        const ratio = average === 0 ? 0 : (this.#lengths[slot * F + f] as number) / average;
        values[slot * F + f] = weight / (1 - b + b * ratio);
      }
    }
    this.#norms = { generation: this.#generation, values };
    return values;
  }
}
