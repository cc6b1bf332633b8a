/**
 * The model's code as tokens, read by sucrase's parser: the same parser that strips the types,
 * so regular expressions, template literals and automatic semicolons are read exactly as the
 * transform reads them. A syntax error comes back as a position in the text it was given (the
 * pipeline keeps that text line-aligned with what the model sent), never as a throw.
 *
 * The parser keeps module-level state; it is synchronous, so each call owns it for its duration.
 */
import { parse } from 'sucrase/dist/parser/index.js';
import type { Token } from 'sucrase/dist/types/parser/tokenizer/index';

export type { Token };

/** Where and why the code does not parse; line and column count from 1. */
export interface SyntaxFailure {
  message: string;
  line: number;
  column: number;
}

export type Tokenized = { ok: true; tokens: Token[] } | { ok: false; failure: SyntaxFailure };

/** The tokens of `code` (the last one is `eof`), parsed as TypeScript or as plain JavaScript. */
export function tokenize(code: string, typescript: boolean): Tokenized {
  try {
    return { ok: true, tokens: parse(code, false, typescript, false).tokens };
  } catch (error) {
    return { ok: false, failure: describeFailure(code, error) };
  }
}

function describeFailure(code: string, error: unknown): SyntaxFailure {
  // Deep nesting overflows the parser's recursion; that is the code's shape, not our fault.
  if (error instanceof RangeError) {
    return { message: 'The code is nested too deeply to read.', line: 1, column: 1 };
  }
  const pos = (error as { pos?: unknown }).pos;
  const raw = error instanceof Error ? error.message : String(error);
  // sucrase appends "(line:column)"; we report our own, counted the same way as the engines.
  const message = raw.replace(/\s*\(\d+:\d+\)\s*$/, '');
  const at = typeof pos === 'number' ? position(code, pos) : { line: 1, column: 1 };
  return { message, ...at };
}

/** The 1-based line and column of character `offset` in `text`. */
export function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
