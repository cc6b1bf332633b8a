/**
 * Reading one harness config file: JSON (strict, as Claude Code and Claude Desktop parse it),
 * JSONC (comments and trailing commas: Gemini, VS Code, and Cursor as tolerated by readers in
 * the wild), TOML (Codex) or YAML (Hermes). A file that does not parse, or that cannot be read,
 * becomes an error naming the file and, when known, the line; it never throws.
 */
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseYaml } from 'yaml';
import { parseJsonText } from '../json-text.ts';
import type { ReadError } from './found.ts';
import type { HarnessFiles } from './harness-files.ts';

export type ConfigFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

export type ConfigRead =
  | { kind: 'absent' }
  | { kind: 'read'; value: unknown }
  | { kind: 'error'; error: ReadError };

function parseJson(file: string, text: string, comments: boolean): ConfigRead {
  const read = parseJsonText(text, { comments, allowEmpty: true });
  if (read.ok) return { kind: 'read', value: read.value };
  return {
    kind: 'error',
    error: {
      file,
      line: read.line,
      message: `not valid ${comments ? 'JSONC' : 'JSON'} (${read.problem}); fix the file and import again`,
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
