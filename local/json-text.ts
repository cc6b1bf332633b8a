/**
 * Parsing a JSON or JSONC text (a harness's config file) with `jsonc-parser`, saying where the
 * first problem is: the importer reports it, connect refuses to edit the file. One parser, so
 * both read a file the same way and name the same line.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

/** The parsed value, or the first problem with its 1-based line and column. */
export type JsonText =
  | { ok: true; value: unknown }
  | { ok: false; problem: string; line: number; column: number };

/**
 * Parses `text` as strict JSON, or with `comments` as JSONC (comments and trailing commas).
 * An empty text is a problem unless `allowEmpty`.
 */
export function parseJsonText(text: string, options: { comments: boolean; allowEmpty: boolean }): JsonText {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: !options.comments,
    allowTrailingComma: options.comments,
    allowEmptyContent: options.allowEmpty,
  });
  const first = errors[0];
  if (!first) return { ok: true, value };
  return { ok: false, problem: printParseErrorCode(first.error), ...lineAndColumn(text, first.offset) };
}

/** 1-based line and column of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
