/**
 * A light English stemmer: enough to make `create`, `creates`, `created`, `creating` and
 * `creation` one term, and nothing that needs a dictionary. Harman's S-stemmer for plurals, then
 * `-ed`/`-ing` (Porter's step 1b, simplified), `-tion` and `-ment` when a long stem is left, and
 * a final silent `e` so `create` meets `created`. The output is an index key, not a word.
 *
 * Invariants:
 * - pure and total: the same word always gives the same stem;
 * - words holding a digit are kept as they are, and so are words of three letters or fewer,
 *   except the plural of a two-letter abbreviation (`ids` -> id, `prs` -> pr);
 * - a suffix comes off only when at least three letters are left and they hold a vowel, so
 *   `string` stays `string` and `added` becomes `add`, not `ad`.
 */

/** Words that look inflected and are not (or whose stem would collide with another word). */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['news', 'news'],
  ['series', 'series'],
  ['species', 'species'],
  ['alias', 'alias'],
  ['aliases', 'alias'],
  ['canvas', 'canvas'],
  ['atlas', 'atlas'],
  ['always', 'always'],
  ['perhaps', 'perhaps'],
]);

const VOWEL = /[aeiouy]/;
const DOUBLE = /([^aeioulsz])\1$/;
const HAS_DIGIT = /\d/;

/** Bounded memo: a hub's vocabulary is a few tens of thousands of words; queries add a few. */
const memo = new Map<string, string>();
const MEMO_LIMIT = 100_000;

/** The stem of one lowercase word. */
export function stem(word: string): string {
  const known = memo.get(word);
  if (known !== undefined) return known;
  const result = stemUncached(word);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(word, result);
  return result;
}

function stemUncached(word: string): string {
  if (HAS_DIGIT.test(word)) return word;
  // Short plurals of abbreviations: ids, prs, dbs (not bus, gas, yes).
  if (word.length === 3) return /^[a-z][b-df-hj-np-tv-z]s$/.test(word) ? word.slice(0, 2) : word;
  if (word.length < 3) return word;
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  let w = plural(word);
  w = inflection(w);
  w = derivation(w);
  // A silent final `e`: create/created, merge/merging, page/paging.
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Harman's S-stemmer: -ies -> -y, -s dropped except after s, u and i (class, status, analysis). */
function plural(w: string): string {
  if (w.endsWith('ies') && w.length > 4 && !/[ae]ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** -ied -> -y; -ed (not -eed) and -ing off a stem with a vowel, then a doubled consonant undone. */
function inflection(w: string): string {
  if (w.endsWith('ied') && w.length > 4) return `${w.slice(0, -3)}y`;
  let base: string | undefined;
  if (w.endsWith('ing')) base = w.slice(0, -3);
  else if (w.endsWith('ed') && !w.endsWith('eed')) base = w.slice(0, -2);
  if (base === undefined || base.length < 3 || !VOWEL.test(base)) return w;
  // running -> run, stopped -> stop; but added -> add, not ad (the stem keeps three letters).
  if (DOUBLE.test(base) && base.length > 3) return base.slice(0, -1);
  return base;
}

/** -tion -> -t (creation -> creat, meeting create -> creat); -ment off a stem of five or more. */
function derivation(w: string): string {
  if (w.endsWith('tion') && w.length > 6) return w.slice(0, -3);
  if (w.endsWith('ment') && w.length >= 9) return w.slice(0, -4);
  return w;
}
