/**
 * The index: every tool the profile can see, ranked by BM25F (ranking.ts) over an inverted
 * index (inverted-index.ts).
 *
 * Kept current one source at a time: `upsert` replaces one namespace's documents and `remove`
 * drops them, without touching the others. Statistics are exact sums and scores are derived from
 * them at query time, so an index kept current by upserts and removes ranks exactly as one
 * rebuilt from the same manifests: same hits, same order, same scores.
 *
 * Invariants:
 * - a namespace's documents are kept in manifest order (what an empty query lists);
 * - each query concept (query.ts) counts once per document, by its best term there;
 * - ties in score are broken by address, never by insertion order;
 * - `namespace` and `where` filter before the limit, so `total` counts every match that passed.
 */
import type { Manifest } from '../contracts/sources.ts';
import { type IndexedDocument, type SearchDocument, toolDocuments } from './document.ts';
import { InvertedIndex } from './inverted-index.ts';
import { queryConcepts } from './query.ts';
import { DEFAULT_RANKING, type Ranking } from './ranking.ts';
import { type Expansion, SYNONYMS } from './vocabulary.ts';

/** How an index ranks; both default to the measured choices. */
export interface SearchIndexOptions {
  ranking?: Ranking;
  synonyms?: ReadonlyMap<string, readonly Expansion[]>;
}

/** What to search and how many hits to return. */
export interface QueryOptions {
  /** Only this namespace's documents. */
  namespace?: string | undefined;
  /** At most this many hits (default 8). */
  limit?: number | undefined;
  /** Documents it rejects are not ranked, and counted in `excluded` (e.g. denied by policy). */
  where?: ((doc: IndexedDocument) => boolean) | undefined;
}

/** One ranked document. */
export interface SearchHit {
  document: IndexedDocument;
  score: number;
}

export interface QueryResult {
  /** Best first, at most `limit`. */
  hits: SearchHit[];
  /** Every matching document that passed `namespace` and `where`. */
  total: number;
  /** Matching documents that `where` rejected. */
  excluded: number;
}

interface Slot {
  doc: IndexedDocument;
  /** The distinct terms of the document, to find its postings on removal. */
  terms: string[];
}

export class SearchIndex {
  readonly #ranking: Ranking;
  readonly #synonyms: ReadonlyMap<string, readonly Expansion[]>;
  readonly #inverted: InvertedIndex;
  readonly #slots: (Slot | undefined)[] = [];
  readonly #free: number[] = [];
  readonly #byNamespace = new Map<string, number[]>();
  /** Per slot, reused across queries; whoever writes a slot zeroes it before the query returns. */
  #scores = new Float64Array(0);
  #best = new Float64Array(0);

  private constructor(options: SearchIndexOptions) {
    this.#ranking = options.ranking ?? DEFAULT_RANKING;
    this.#synonyms = options.synonyms ?? SYNONYMS;
    this.#inverted = new InvertedIndex(this.#ranking);
  }

  /** An index of every tool of `manifests`; a namespace listed twice keeps its last manifest. */
  static build(manifests: Iterable<Manifest>, options: SearchIndexOptions = {}): SearchIndex {
    const index = new SearchIndex(options);
    for (const manifest of manifests) index.upsert(manifest);
    return index;
  }

  /** Number of documents. */
  get size(): number {
    return this.#slots.length - this.#free.length;
  }

  /** True when the index holds `namespace` (even with no tools). */
  has(namespace: string): boolean {
    return this.#byNamespace.has(namespace);
  }

  /** Every namespace in the index, sorted. */
  namespaces(): string[] {
    return [...this.#byNamespace.keys()].sort();
  }

  /** A namespace's documents in manifest order; empty when it is not in the index. */
  documents(namespace: string): IndexedDocument[] {
    const slots = this.#byNamespace.get(namespace) ?? [];
    return slots.map((slot) => (this.#slots[slot] as Slot).doc);
  }

  /** Replaces one namespace's documents with the tools of `manifest`. */
  upsert(manifest: Manifest): void {
    this.upsertDocuments(manifest.namespace, toolDocuments(manifest));
  }

  /** Replaces one namespace's documents with `documents`, in their order (kept in the store, say). */
  upsertDocuments(namespace: string, documents: readonly SearchDocument[]): void {
    this.remove(namespace);
    this.#byNamespace.set(
      namespace,
      documents.map((document) => this.#add(document)),
    );
  }

  /** Drops a namespace's documents; false when it had none in the index. */
  remove(namespace: string): boolean {
    const slots = this.#byNamespace.get(namespace);
    if (slots === undefined) return false;
    this.#byNamespace.delete(namespace);
    const terms = new Set<string>();
    for (const slot of slots) {
      for (const term of (this.#slots[slot] as Slot).terms) terms.add(term);
      this.#slots[slot] = undefined;
      this.#free.push(slot);
    }
    this.#inverted.remove(new Set(slots), terms);
    return true;
  }

  /** Ranks the documents that match `text`, best first. */
  query(text: string, options: QueryOptions = {}): QueryResult {
    const concepts = queryConcepts(text, this.#ranking, (term) => this.#inverted.has(term), this.#synonyms);
    if (this.#scores.length < this.#slots.length) {
      this.#scores = new Float64Array(this.#slots.length * 2);
      this.#best = new Float64Array(this.#slots.length * 2);
    }
    const scores = this.#scores;
    const best = this.#best;
    const only = options.namespace;
    const touched: number[] = [];
    const matched: number[] = [];
    for (const concept of concepts) {
      // A concept counts once per document: by its best-scoring term there.
      for (const { term, weight } of concept.terms) {
        const posting = this.#inverted.contributions(term);
        for (let i = 0; i < posting.slots.length; i++) {
          const slot = posting.slots[i] as number;
          const score = weight * (posting.scores[i] as number);
          const previous = best[slot] as number;
          if (previous === 0) matched.push(slot);
          if (score > previous) best[slot] = score;
        }
      }
      for (const slot of matched) {
        const score = best[slot] as number;
        best[slot] = 0;
        if (only !== undefined && (this.#slots[slot] as Slot).doc.namespace !== only) continue;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + score;
      }
      matched.length = 0;
    }
    return this.#select(touched, scores, options.limit ?? 8, options.where);
  }

  #add({ doc, terms: fields }: SearchDocument): number {
    const slot = this.#free.pop() ?? this.#slots.length;
    const terms = this.#inverted.add(slot, fields);
    this.#slots[slot] = { doc, terms };
    return slot;
  }

  /** The best `limit` of the touched slots, zeroing their scores for the next query. */
  #select(
    touched: readonly number[],
    scores: Float64Array,
    limit: number,
    where: QueryOptions['where'],
  ): QueryResult {
    const hits: SearchHit[] = [];
    let total = 0;
    let excluded = 0;
    for (const slot of touched) {
      const score = scores[slot] as number;
      scores[slot] = 0;
      const doc = (this.#slots[slot] as Slot).doc;
      if (where !== undefined && !where(doc)) {
        excluded++;
        continue;
      }
      total++;
      if (limit <= 0) continue;
      if (hits.length === limit && !ranksBefore(score, doc, hits[limit - 1] as SearchHit)) continue;
      let at = hits.length === limit ? limit - 1 : hits.length;
      while (at > 0 && ranksBefore(score, doc, hits[at - 1] as SearchHit)) {
        hits[at] = hits[at - 1] as SearchHit;
        at--;
      }
      hits[at] = { document: doc, score };
    }
    return { hits, total, excluded };
  }
}

function ranksBefore(score: number, doc: IndexedDocument, other: SearchHit): boolean {
  return score > other.score || (score === other.score && doc.address < other.document.address);
}
