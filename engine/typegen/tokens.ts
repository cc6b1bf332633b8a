/**
 * Token counts as the budget means them: o200k_base, the encoding of current OpenAI models and a
 * fair stand-in for the others. The encoder is built once, on first use (its ranks are large and
 * most processes never count). Text is counted as plain text: a tool description that happens to
 * contain `<|endoftext|>` is a few ordinary tokens, not an error.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

/** The number of o200k_base tokens in `text`. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}
