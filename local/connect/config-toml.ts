/**
 * TOML harness files (Codex's config.toml), edited with `@decimalturn/toml-patch`, which keeps
 * comments, order and formatting. A new entry is appended at the end of the file as its own
 * `[mcp_servers.capabilities]` table (and `[mcp_servers.capabilities.env]`), exactly the layout
 * `codex mcp add` writes; when that cannot be appended (the servers are an inline table, say),
 * toml-patch places it. Replacing and removing an entry go through toml-patch's `patch`, which
 * touches only what differs. A file that does not parse is named with its line and column.
 */
import { parse, patch, stringify } from '@decimalturn/toml-patch';
import { HubError } from '../../engine/errors.ts';
import {
  type ConfigDocument,
  checkEdit,
  expectedAfter,
  isObject,
  type ParsedObject,
  plainCopy,
  serversOf,
} from './config-document.ts';

function parseToml(file: string, text: string): ParsedObject {
  let parsed: unknown;
  try {
    parsed = plainCopy(parse(text));
  } catch (error) {
    const where = error as { line?: unknown; column?: unknown; message?: unknown };
    const line = typeof where.line === 'number' ? where.line : undefined;
    const column = typeof where.column === 'number' ? where.column + 1 : undefined;
    // The message is a heading, the line, a caret, and last what is wrong.
    const why = String(where.message ?? error)
      .trim()
      .split('\n')
      .at(-1);
    throw new HubError(
      'corrupt',
      `${file} is not valid TOML${line === undefined ? '' : ` at line ${line}${column === undefined ? '' : `, column ${column}`}`}: ${why}; fix it (or move it away), then run connect again`,
    );
  }
  if (!isObject(parsed)) throw new HubError('corrupt', `${file} does not hold a TOML table`);
  return parsed;
}

/** `[key.name]` (and `[key.name.env]`) as `codex mcp add` lays them out, with the file's line ending. */
function tableText(key: string, name: string, value: Record<string, unknown>, eol: string): string {
  const text = stringify({ [key]: { [name]: value } }, { inlineTableStart: 3, bracketSpacing: false });
  // stringify opens with the empty parent table, which the dotted headers make unnecessary.
  return text.replace(new RegExp(`^\\[${key}\\]\\n\\n`), '').replaceAll('\n', eol);
}

export function openTomlConfig(file: string, text: string, key: string, name: string): ConfigDocument {
  const parsed = parseToml(file, text);
  const servers = serversOf(file, parsed, key);
  const matches = (next: string, value: Record<string, unknown> | undefined): boolean => {
    try {
      checkEdit(file, parseToml(file, next), expectedAfter(parsed, key, name, value));
      return true;
    } catch {
      return false;
    }
  };
  const checked = (next: string, value: Record<string, unknown> | undefined): string => {
    checkEdit(file, parseToml(file, next), expectedAfter(parsed, key, name, value));
    return next;
  };
  return {
    entry: servers?.[name],
    withEntry(value) {
      if (servers?.[name] === undefined) {
        const eol = text.includes('\r\n') ? '\r\n' : '\n';
        const lead = text === '' ? '' : text.endsWith(eol) ? eol : `${eol}${eol}`;
        const appended = `${text}${lead}${tableText(key, name, value, eol)}`;
        if (matches(appended, value)) return appended;
      }
      return checked(patch(text, expectedAfter(parsed, key, name, value)), value);
    },
    withoutEntry() {
      if (servers?.[name] === undefined) return text;
      return checked(patch(text, expectedAfter(parsed, key, name, undefined)), undefined);
    },
  };
}
