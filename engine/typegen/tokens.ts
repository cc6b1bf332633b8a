/**
 * Token counts as the budget means them: o200k_base, the encoding of current OpenAI models and a
 * fair stand-in for the others. The encoder is built once, on first use (its ranks are large and
 * most processes never count). Text is counted as plain text: a tool description that happens to
 * contain `<|endoftext|>` is a few ordinary tokens, not an error.
 *
 * Bounded work (spec: Security, I7). js-tiktoken's byte-pair merge is quadratic in the length of
 * one piece of pre-tokenized text (a 5,000-letter word took 2.3 s to count), and a source decides
 * what its names and descriptions hold. So the text is split here with the encoding's own pattern
 * and each piece is encoded alone (the encoder splits with that pattern too, so the sum is the
 * same count), a piece longer than LONG_PIECE characters in slices of LONG_PIECE characters. Each
 * piece's count is remembered: `describe` counts many answers made of the same lines. A caller
 * that only asks "does it fit?" passes `stopAfter`, and counting ends once past it.
 *
 * Counts are exact for every text whose pieces are at most LONG_PIECE long, which is every text
 * of the corpus (its longest piece has 22 characters); past that they are off by about a token
 * per slice.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/** The longest piece handed to the encoder whole. */
export const LONG_PIECE = 32;
/** Pieces remembered (each at most LONG_PIECE characters); past this the memory starts over. */
const MAX_REMEMBERED = 50_000;

let encoder: Tiktoken | undefined;
let pattern: RegExp | undefined;
const remembered = new Map<string, number>();

/**
 * The number of o200k_base tokens in `text`; with `stopAfter`, any number above `stopAfter` once
 * the text is known to be longer than that (the count stops there).
 */
export function countTokens(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  if (text === '') return 0;
  pattern ??= new RegExp(o200kBase.pat_str, 'gu');
  let tokens = 0;
  for (const match of text.matchAll(pattern)) {
    const piece = match[0];
    if (piece.length <= LONG_PIECE) tokens += pieceTokens(piece);
    else {
      for (let at = 0; at < piece.length; ) {
        let end = Math.min(piece.length, at + LONG_PIECE);
        // A slice never ends between the two halves of a surrogate pair.
        if (end < piece.length && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
        tokens += pieceTokens(piece.slice(at, end));
        if (tokens > stopAfter) return tokens;
        at = end;
      }
    }
    if (tokens > stopAfter) return tokens;
  }
  return tokens;
}

function pieceTokens(piece: string): number {
  const known = remembered.get(piece);
  if (known !== undefined) return known;
  encoder ??= new Tiktoken(o200kBase);
  const tokens = encoder.encode(piece, [], []).length;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(piece, tokens);
  return tokens;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
