/**
 * Related words: for a common English word, the words of tool descriptions that WordNet relates
 * to it (same meaning, one level more general, or another form of the word: `hear` -> learn,
 * discover; `restart` -> start). They widen a query phrased as an outcome toward the words tools
 * describe themselves with, at a weight below the vocabulary's synonyms (ranking.ts), so an
 * exact word and a hand-written synonym still win.
 *
 * The table is generated (bench/wordnet-related.ts -> related.generated.ts) and parsed once, on
 * first use. Invariants: keys and targets are stems as the index makes them; a word never
 * relates to itself.
 */
import { RELATED_WORDS } from './related.generated.ts';

let table: ReadonlyMap<string, readonly string[]> | undefined;

/** Parses `word:target,target;word:...` into a map. */
export function parseRelated(text: string): ReadonlyMap<string, readonly string[]> {
  const result = new Map<string, readonly string[]>();
  for (const entry of text.split(';')) {
    const colon = entry.indexOf(':');
    if (colon > 0) result.set(entry.slice(0, colon), entry.slice(colon + 1).split(','));
  }
  return result;
}

/** The generated table, parsed on first use. */
export function relatedWords(): ReadonlyMap<string, readonly string[]> {
  table ??= parseRelated(RELATED_WORDS);
  return table;
}
