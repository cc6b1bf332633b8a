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
import {
  FIELDS,
  type IndexedDocument,
  type SearchDocument,
  skillDocument,
  toolDocuments,
} from './document.ts';
import { InvertedIndex } from './inverted-index.ts';
import { type Leaning, Leanings } from './leanings.ts';
import { queryConcepts, queryWords } from './query.ts';
import { DEFAULT_RANKING, type Ranking } from './ranking.ts';
import { onlyReads } from './reads.ts';
import { kindsOf } from './service-kinds.ts';
import { terms as textTerms } from './tokenize.ts';
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
  /**
   * How much of the query the best hit matches, from 0 to 1: its BM25F score against the most
   * the query's concepts could score (each at its rarest term's idf). 0 when nothing matched.
   */
  closeness: number;
}

/** What the index keeps of a source beyond its documents. */
export interface SourceTraits {
  /** Indexes into SERVICE_KINDS (service-kinds.ts): what the source is for. */
  kinds: readonly number[];
  /** Terms of its namespace and server name. */
  names: ReadonlySet<string>;
}

interface Slot {
  doc: IndexedDocument;
  /** The distinct terms of the document, to find its postings on removal. */
  terms: string[];
  /** Terms it holds only as its source's name: matching them alone does not make it a match. */
  nameOnly: readonly string[];
}

/** The pseudo-namespace skills are kept under; never listed among namespaces. */
const SKILLS = '';
/** Words of server names that name no service (`example-servers/brave-search`, `Notion API`). */
const GENERIC_NAMES = new Set(
  textTerms(
    'mcp server servers api example examples official reference secure search model context protocol',
  ),
);
/** How much a query word no tool says (nor its synonyms) counts against closeness: a share of a rare word. */
const UNKNOWN_WEIGHT = 0.5;
/** Where the namespace field sits among a document's fields (document.ts FIELDS). */
const NAMESPACE_FIELD = FIELDS.indexOf('namespace');

export class SearchIndex {
  readonly #ranking: Ranking;
  readonly #synonyms: ReadonlyMap<string, readonly Expansion[]>;
  readonly #inverted: InvertedIndex;
  readonly #slots: (Slot | undefined)[] = [];
  readonly #free: number[] = [];
  readonly #byNamespace = new Map<string, number[]>();
  readonly #traits = new Map<string, SourceTraits>();
  /** Per slot, reused across queries; whoever writes a slot zeroes it before the query returns. */
  #scores = new Float64Array(0);
  #best = new Float64Array(0);
  /** Per slot: 1 once a query matched it in its own words (not only its source's name). */
  #content = new Uint8Array(0);
  readonly #leanings: Leanings;

  private constructor(options: SearchIndexOptions) {
    this.#ranking = options.ranking ?? DEFAULT_RANKING;
    this.#synonyms = options.synonyms ?? SYNONYMS;
    this.#inverted = new InvertedIndex(this.#ranking);
    this.#leanings = new Leanings(this.#ranking);
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
    return namespace !== SKILLS && this.#byNamespace.has(namespace);
  }

  /** Every namespace in the index, sorted (skills are not a namespace). */
  namespaces(): string[] {
    return [...this.#byNamespace.keys()].filter((namespace) => namespace !== SKILLS).sort();
  }

  /** What a namespace is for and what it is named (empty when it is not in the index). */
  traits(namespace: string): SourceTraits {
    return this.#traits.get(namespace) ?? { kinds: [], names: new Set() };
  }

  /** Replaces the skills the index ranks with the tools. */
  upsertSkills(skills: readonly { name: string; description: string }[]): void {
    this.upsertDocuments(SKILLS, skills.map(skillDocument));
  }

  /** The number of skills in the index. */
  get skillCount(): number {
    return this.#byNamespace.get(SKILLS)?.length ?? 0;
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
    const names = new Set(
      (documents[0]?.terms[NAMESPACE_FIELD] ?? textTerms(namespace)).filter(
        (term) => !GENERIC_NAMES.has(term),
      ),
    );
    if (namespace !== SKILLS) {
      const tools = documents.map(
        ({ terms: fields }) => new Set([...(fields[0] ?? []), ...(fields[1] ?? [])]),
      );
      const kinds = kindsOf(tools, names);
      this.#traits.set(namespace, { kinds, names });
      this.#leanings.addSource(namespace, kinds, names);
    }
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
    const traits = this.#traits.get(namespace);
    if (traits !== undefined) this.#leanings.removeSource(namespace, traits.kinds, traits.names);
    this.#traits.delete(namespace);
    const terms = new Set<string>();
    for (const slot of slots) {
      for (const term of (this.#slots[slot] as Slot).terms) terms.add(term);
      this.#slots[slot] = undefined;
      this.#free.push(slot);
    }
    this.#inverted.remove(new Set(slots), terms);
    return true;
  }

  /**
   * Ranks the documents that match `text`, best first. A document matches when it holds one of
   * the query's concepts in its own words; one that holds only its source's name matches only a
   * query that says nothing else the index knows (`github` lists GitHub's tools). Scores then lean:
   * toward the sources the query names, toward sources of the kinds it asks for, and, for a
   * question, toward tools that only read (ranking.ts says by how much).
   */
  query(text: string, options: QueryOptions = {}): QueryResult {
    const concepts = queryConcepts(text, this.#ranking, (term) => this.#inverted.has(term), this.#synonyms);
    if (this.#scores.length < this.#slots.length) {
      this.#scores = new Float64Array(this.#slots.length * 2);
      this.#best = new Float64Array(this.#slots.length * 2);
      this.#content = new Uint8Array(this.#slots.length * 2);
    }
    const scores = this.#scores;
    const best = this.#best;
    const content = this.#content;
    const only = options.namespace;
    const touched: number[] = [];
    const matched: number[] = [];
    let ideal = 0;
    let anyContent = false;
    for (const concept of concepts) {
      let most = 0;
      // A concept counts once per document: by its best-scoring term there.
      for (const { term, weight } of concept.terms) {
        most = Math.max(most, weight * this.#inverted.idf(term));
        const naming = this.#leanings.names(term);
        const posting = this.#inverted.contributions(term);
        for (let i = 0; i < posting.slots.length; i++) {
          const slot = posting.slots[i] as number;
          const score = weight * (posting.scores[i] as number);
          const previous = best[slot] as number;
          if (previous === 0) matched.push(slot);
          if (score > previous) best[slot] = score;
          if (!naming || !(this.#slots[slot] as Slot).nameOnly.includes(term)) content[slot] = 1;
        }
      }
      ideal += most;
      for (const slot of matched) {
        const score = best[slot] as number;
        best[slot] = 0;
        if (only !== undefined && (this.#slots[slot] as Slot).doc.namespace !== only) {
          content[slot] = 0;
          continue;
        }
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] = (scores[slot] as number) + score;
        if (content[slot] === 1) anyContent = true;
      }
      matched.length = 0;
    }
    // A word of the query that no tool says, nor any of its synonyms, is part of what was asked
    // that nothing here matches: it counts toward the most the query could score, as a rare word.
    const placed = new Set(concepts.flatMap((concept) => concept.terms.map((t) => t.term)));
    const rare = Math.log(1 + (this.size - 0.5) / 1.5);
    const meaningful = (term: string) => this.#inverted.has(term) || this.#synonyms.has(term);
    for (const term of queryWords(text, meaningful)) {
      const stands = placed.has(term) || (this.#synonyms.get(term) ?? []).some((e) => placed.has(e.term));
      if (!stands) ideal += UNKNOWN_WEIGHT * rare;
    }
    const leaning = this.#leanings.lean(text);
    const result = this.#select(
      touched,
      anyContent,
      scores,
      leaning,
      ideal,
      options.limit ?? 8,
      options.where,
    );
    leaning.clear();
    return result;
  }

  #add({ doc, terms: fields }: SearchDocument): number {
    const slot = this.#free.pop() ?? this.#slots.length;
    const terms = this.#inverted.add(slot, fields);
    const own = new Set(fields.slice(0, NAMESPACE_FIELD).flat());
    const nameOnly = (fields[NAMESPACE_FIELD] ?? []).filter((term) => !own.has(term));
    this.#slots[slot] = { doc, terms, nameOnly };
    this.#leanings.addSlot(slot, doc.namespace, onlyReads(doc));
    return slot;
  }

  /**
   * The best `limit` of the touched slots, in one pass: only those matched in their own words count
   * once any was (`anyContent`), each score is leaned, and every slot's state is zeroed for the
   * next query. Closeness is the best hit's score before its leaning, against `ideal`.
   */
  #select(
    touched: readonly number[],
    anyContent: boolean,
    scores: Float64Array,
    leaning: Leaning,
    ideal: number,
    limit: number,
    where: QueryOptions['where'],
  ): QueryResult {
    const content = this.#content;
    const hits: SearchHit[] = [];
    let total = 0;
    let excluded = 0;
    let bestScore = -1;
    let bestRaw = 0;
    let bestAddress = '';
    for (const slot of touched) {
      const raw = scores[slot] as number;
      scores[slot] = 0;
      const own = content[slot] === 1;
      content[slot] = 0;
      if (anyContent && !own) continue;
      const score = leaning.active ? raw * this.#leanings.factor(slot, leaning.readFactor) : raw;
      const doc = (this.#slots[slot] as Slot).doc;
      if (where !== undefined && !where(doc)) {
        excluded++;
        continue;
      }
      total++;
      if (score > bestScore || (score === bestScore && doc.address < bestAddress)) {
        bestScore = score;
        bestRaw = raw;
        bestAddress = doc.address;
      }
      if (limit <= 0) continue;
      if (hits.length === limit && !ranksBefore(score, doc, hits[limit - 1] as SearchHit)) continue;
      let at = hits.length === limit ? limit - 1 : hits.length;
      while (at > 0 && ranksBefore(score, doc, hits[at - 1] as SearchHit)) {
        hits[at] = hits[at - 1] as SearchHit;
        at--;
      }
      hits[at] = { document: doc, score };
    }
    const closeness = total === 0 || ideal === 0 ? 0 : Math.min(1, bestRaw / ideal);
    return { hits, total, excluded, closeness };
  }
}

function ranksBefore(score: number, doc: IndexedDocument, other: SearchHit): boolean {
  return score > other.score || (score === other.score && doc.address < other.document.address);
}
