/**
 * A query as concepts. Each word of the query is a concept, together with the words the
 * vocabulary gives for the same thing; query words that are synonyms of each other ("create a
 * new issue") are one concept. Adjacent words joined into one (`who am i` -> whoami, `to-dos` ->
 * todos) are a concept of their own when the index knows the compound.
 *
 * The index counts a concept once per document, by its best term there (the term's weight times
 * its BM25F score), so a tool that says "add", "new" and "make" counts the idea of creating once,
 * and below one that says "create". On the development intents this beats scoring each synonym as
 * a term of its own: MRR 0.962 against 0.947.
 *
 * A query word no tool uses ("hear", "crm" where no description says it) has no exact match to
 * outrank, so its synonyms count `standInBoost` times more (capped at 1). A word written inside a
 * value (`feature/login`, `config.yaml`, `localhost:3000`) names what the tool is given, not what it
 * does, so its concept counts `valueWeight`.
 *
 * Invariants: a term appears in one concept at most, the query's own words at weight 1 and
 * synonyms at `synonymWeight` (shared among the words of a phrase, boosted for an unknown word);
 * terms the index does not know are left out; the order is deterministic.
 */
import type { Ranking } from './ranking.ts';
import { stem } from './stem.ts';
import { type Token, termOf, tokens } from './tokenize.ts';
import type { Expansion } from './vocabulary.ts';

/** A term and how much one occurrence of it counts toward its concept. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** One idea of the query: its own words (weight 1) first, then their synonyms (less). */
export interface QueryConcept {
  terms: WeightedTerm[];
}

const LETTERS = /^\p{L}+$/u;

/** The longest run of adjacent words joined into a compound. */
const MAX_JOIN = 3;

/**
 * The concepts of `text`. `known` says whether the index holds a term; `synonyms` maps a stem to
 * its expansions.
 */
export function queryConcepts(
  text: string,
  ranking: Ranking,
  known: (term: string) => boolean,
  synonyms: ReadonlyMap<string, readonly Expansion[]>,
): QueryConcept[] {
  const found = tokens(text);
  const meaningful = (term: string) => known(term) || synonyms.has(term);
  const own = [...new Set(found.flatMap((token) => tokenTerms(token, meaningful)))];
  const values = valueTerms(text, meaningful);
  const concepts: QueryConcept[] = [];
  const placed = new Set<string>();
  for (const term of own) {
    if (placed.has(term)) continue;
    // The query's own words that are synonyms of this one join its concept.
    const related = synonyms.get(term) ?? [];
    const members = own.filter((other) => other === term || related.some((e) => e.term === other));
    const weights = new Map<string, number>();
    for (const member of members) {
      placed.add(member);
      weights.set(member, 1);
    }
    // A word the tools never use has no exact match to outrank: its synonyms stand in for it.
    const boost = members.some(known) ? 1 : ranking.standInBoost;
    for (const member of members) {
      for (const { term: synonym, share } of synonyms.get(member) ?? []) {
        const weight = Math.min(1, ranking.synonymWeight * share * boost);
        if (!placed.has(synonym) && weight > (weights.get(synonym) ?? 0)) weights.set(synonym, weight);
      }
    }
    // A word written inside a value (`feature/login`, `config.yaml`, `localhost:3000`) names a
    // thing the tool is given, not what the tool does: it counts for less.
    if (members.every((member) => values.has(member))) {
      for (const [member, weight] of weights) weights.set(member, weight * ranking.valueWeight);
    }
    pushConcept(concepts, weights, known);
  }
  for (const compound of compounds(found)) {
    if (placed.has(compound)) continue;
    placed.add(compound);
    pushConcept(concepts, new Map([[compound, ranking.compoundWeight]]), known);
  }
  return concepts;
}

/** The query's own terms, as its concepts read them (`GitHub` is github, not git and hub). */
export function queryWords(text: string, meaningful: (term: string) => boolean): string[] {
  return [...new Set(tokens(text).flatMap((token) => tokenTerms(token, meaningful)))];
}

/**
 * A token's terms in a query: the token as one word when it splits and means something as written
 * (the index or the vocabulary knows it: `GitHub` -> github, `k8s`), else its words
 * (`createIssue` -> create, issue).
 */
function tokenTerms(token: Token, meaningful: (term: string) => boolean): string[] {
  if (token.words.length > 1) {
    const whole = termOf(token.whole);
    if (whole !== undefined && meaningful(whole)) return [whole];
  }
  return token.words.map(termOf).filter((term) => term !== undefined);
}

/** Letters and digits joined by `/`, `.`, `:` or `@` into one value: a path, a file, a host, a branch. */
const VALUE = /[\p{L}\p{N}_-]+(?:[/.:@][\p{L}\p{N}_-]+)+/gu;

/** The terms written only inside values in `text`. */
function valueTerms(text: string, meaningful: (term: string) => boolean): Set<string> {
  const found = new Set<string>();
  for (const value of text.match(VALUE) ?? []) {
    for (const token of tokens(value)) for (const term of tokenTerms(token, meaningful)) found.add(term);
  }
  // A word also written on its own ("the file notes/file.txt") is the query's word too.
  for (const term of queryWords(text.replace(VALUE, ' '), meaningful)) found.delete(term);
  return found;
}

/** Stems of runs of two or three adjacent tokens written as one (`who am i` -> whoami). */
function compounds(found: readonly Token[]): string[] {
  const result: string[] = [];
  for (let i = 0; i < found.length; i++) {
    let joined = (found[i] as Token).whole;
    if (!LETTERS.test(joined)) continue;
    for (let j = i + 1; j < found.length && j < i + MAX_JOIN; j++) {
      const next = (found[j] as Token).whole;
      if (!LETTERS.test(next)) break;
      joined += next;
      result.push(stem(joined));
    }
  }
  return result;
}

/** Adds a concept of the known terms among `weights`, if there are any. */
function pushConcept(
  concepts: QueryConcept[],
  weights: ReadonlyMap<string, number>,
  known: (term: string) => boolean,
): void {
  const terms: WeightedTerm[] = [];
  for (const [term, weight] of weights) if (weight > 0 && known(term)) terms.push({ term, weight });
  if (terms.length > 0) concepts.push({ terms });
}
