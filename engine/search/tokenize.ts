/**
 * Words from text and from identifiers, the same way for what the index stores and what a
 * query asks, so the two always meet.
 *
 * Text is read as tokens, runs of letters and digits, and each token as its words:
 * - identifiers split into their words: snake_case, kebab-case, camelCase, acronyms
 *   (`APIRetrieveAPage` -> api retrieve a page) and letter-to-digit boundaries, while digits keep
 *   the letters that follow them (`getUser2FA` -> get user 2fa);
 * - a token of several words is also a word of its own as written (`GitHub` -> git hub github,
 *   `k8s` -> k 8s k8s), so `github` typed in lowercase meets `GitHub` in a description;
 * - words are lowercase, with diacritics removed (`créer` -> creer);
 * - `terms` drops stopwords, single characters and bare numbers (ids, HTTP codes and version
 *   parts say nothing about what a tool does), then stems what is left.
 */
import { stem } from './stem.ts';

/** A token: a run of letters (with their marks) and digits. */
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;
const ASCII_TOKEN = /[A-Za-z0-9]+/g;

/**
 * One word of a token: a plural acronym (`IDs`, `URLs`), an acronym before a capitalized word, a
 * capitalized or lowercase run, an acronym, digits with the lowercase run or acronym after them,
 * or a run of letters without case (CJK and the like).
 */
const WORD =
  /\p{Lu}{2,}s(?!\p{Ll})|\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+(?:\p{Ll}+|\p{Lu}+(?!\p{Ll}))?|[\p{Lo}\p{Lm}\p{Lt}]+/gu;

/** WORD for ASCII tokens, which are nearly all of them: the same classes, without Unicode tables. */
const ASCII_WORD =
  /[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+(?:[a-z]+|[A-Z]+(?![a-z]))?/g;

/** An ASCII token that is one word as it stands: one case (or capitalized), no digits. */
const ASCII_ONE_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;

const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
const MARKS = /\p{M}/gu;
const DIGITS = /^\p{N}+$/u;

/**
 * Function words that carry no meaning about what a tool does. Kept short on purpose: words such
 * as `all`, `new`, `open` or `who` stay out of it because they tell tools apart.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  [
    'a about above after again am an and any are as at be been before being below between both but by',
    'can could did do does doing during each few for from further had has have having he her here hers',
    'him his how i if in into is it its itself just me more most my myself no nor not of off on once only',
    'or other our ours out over own same she should so some such than that the their theirs them then',
    'there these they this those through to too under until up very was we were what when where which',
    'while whom why will with would you your yours yourself please eg ie etc via',
  ]
    .join(' ')
    .split(' '),
);

/** One token of text: the token as one word, and the words it splits into (`[whole]` if none). */
export interface Token {
  whole: string;
  words: string[];
}

/** The tokens of `text`, with their words lowercase; nothing dropped, nothing stemmed. */
export function tokens(text: string): Token[] {
  const ascii = !NON_ASCII.test(text);
  const found = text.match(ascii ? ASCII_TOKEN : TOKEN) ?? [];
  return found.map((token) => {
    const raw = ascii ? token : unmark(token);
    return { whole: raw.toLowerCase(), words: split(raw, ascii).map((word) => word.toLowerCase()) };
  });
}

/** Every word of `text` in order, lowercase; nothing dropped, nothing stemmed. */
export function words(text: string): string[] {
  return tokens(text).flatMap((token) => token.words);
}

/** True for a word that never becomes a term: a stopword, a single character or a bare number. */
export function isNoise(word: string): boolean {
  return word.length < 2 || STOPWORDS.has(word) || DIGITS.test(word);
}

/** The term of one lowercase word, or undefined for noise. */
export function termOf(word: string): string | undefined {
  return isNoise(word) ? undefined : stem(word);
}

/** Raw token (case kept) -> its terms. Bounded like the stemmer's memo. */
const memo = new Map<string, readonly string[]>();
const MEMO_LIMIT = 100_000;

/**
 * The index terms of `text`, in order (repeats kept): each token's words without noise, stemmed,
 * followed by the token as one word when it splits into several. Appended to `into` if given.
 */
export function terms(text: string, into: string[] = []): string[] {
  const result = into;
  const ascii = !NON_ASCII.test(text);
  for (const raw of text.match(ascii ? ASCII_TOKEN : TOKEN) ?? []) {
    let found = memo.get(raw);
    if (found === undefined) {
      found = tokenTerms(raw, ascii);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(raw, found);
    }
    for (const term of found) result.push(term);
  }
  return result;
}

function tokenTerms(token: string, ascii: boolean): string[] {
  const raw = ascii ? token : unmark(token);
  const parts = split(raw, ascii);
  const found: string[] = [];
  for (const part of parts) {
    const term = termOf(part.toLowerCase());
    if (term !== undefined) found.push(term);
  }
  if (parts.length > 1) {
    const whole = termOf(raw.toLowerCase());
    if (whole !== undefined) found.push(whole);
  }
  return found;
}

/** The words of one token, case kept. */
function split(raw: string, ascii: boolean): string[] {
  if (ascii && ASCII_ONE_WORD.test(raw)) return [raw];
  return raw.match(ascii ? ASCII_WORD : WORD) ?? [raw];
}

/** Without diacritics (`Créer` -> Creer), case kept. */
function unmark(raw: string): string {
  return raw.normalize('NFKD').replace(MARKS, '');
}
