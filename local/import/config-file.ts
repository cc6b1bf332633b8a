/**
 * Reading one harness config file: JSON (strict, as Claude Code and Claude Desktop parse it),
 * JSONC (comments and trailing commas: Gemini, VS Code, and Cursor as tolerated by readers in
 * the wild), TOML (Codex) or YAML (Hermes). A file that does not parse, or that cannot be read,
 * becomes an error naming the file and, when known, the line; it never throws.
 */
import { parse as parseToml } from '@decimalturn/toml-patch';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import type { ReadError } from './found.ts';
import type { HarnessFiles } from './harness-files.ts';

export type ConfigFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

export type ConfigRead =
  | { kind: 'absent' }
  | { kind: 'read'; value: unknown }
  | { kind: 'error'; error: ReadError };

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

function parseJson(file: string, text: string, comments: boolean): ConfigRead {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, {
    disallowComments: !comments,
    allowTrailingComma: comments,
    allowEmptyContent: true,
  });
  const first = errors[0];
  if (!first) return { kind: 'read', value };
  return {
    kind: 'error',
    error: {
      file,
      line: lineAt(text, first.offset),
      message: `not valid ${comments ? 'JSONC' : 'JSON'} (${printParseErrorCode(first.error)}); fix the file and import again`,
    },
  };
}

function lineOf(error: unknown): number | undefined {
  const e = error as { line?: unknown; linePos?: { line?: unknown }[] } | null;
  if (typeof e?.line === 'number') return e.line;
  const line = e?.linePos?.[0]?.line;
  return typeof line === 'number' ? line : undefined;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((l) => l.trim() !== '' && !/^Error parsing/.test(l)) ?? message).trim();
}

/** Reads and parses `file`; absent when it does not exist. */
export function readConfig(files: HarnessFiles, file: string, format: ConfigFormat): ConfigRead {
  let text: string | undefined;
  try {
    text = files.readFile(file);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const why = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
    return { kind: 'error', error: { file, message: `cannot be read (${why}); check its permissions` } };
  }
  if (text === undefined) return { kind: 'absent' };
  if (format === 'json' || format === 'jsonc') return parseJson(file, text, format === 'jsonc');
  try {
    const value: unknown = format === 'toml' ? parseToml(text) : parseYaml(text);
    return { kind: 'read', value };
  } catch (error) {
    const line = lineOf(error);
    const kind = format === 'toml' ? 'TOML' : 'YAML';
    return {
      kind: 'error',
      error: {
        file,
        line,
        message: `not valid ${kind} (${firstLine(error)}); fix the file and import again`,
      },
    };
  }
}

/** `value` as a plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
