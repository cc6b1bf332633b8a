/**
 * TOML harness files (Codex's config.toml), edited with `@decimalturn/toml-patch`, which keeps
 * comments, order and formatting. A new entry is appended at the end of the file as its own
 * `[mcp_servers.capabilities]` table (and `[mcp_servers.capabilities.env]`), exactly the layout
 * `codex mcp add` writes; when that cannot be appended (the servers are an inline table, say),
 * toml-patch places it. Removing an entry laid out as its own tables takes exactly their lines
 * (toml-patch's removal also takes the comments around them); other removals and replacing an
 * entry go through toml-patch's `patch`, which touches only what differs. Every result is checked
 * (config-document.ts). A file that does not parse is named with its line and column.
 */
import { parse, parseDocument, patch, stringify } from '@decimalturn/toml-patch';
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

const blank = (line: string | undefined): boolean => line !== undefined && line.trim() === '';

/**
 * `text` without the lines of the entry's own tables (`[key.name]`, `[key.name.env]`, …): from
 * each header through its last key, so a comment after it (which introduces what follows) stays,
 * as do comments anywhere else; one blank line goes with it so the gaps stay as they were.
 * Undefined when the entry is not laid out as such tables (the caller then lets toml-patch do it).
 */
function withoutTables(text: string, key: string, name: string): string | undefined {
  let blocks: ReturnType<typeof parseDocument>['cst'];
  try {
    blocks = parseDocument(text).cst;
  } catch {
    return undefined;
  }
  // 1-based inclusive line ranges, merged when only blank lines separate them.
  const lines = text.split('\n');
  const ranges: [number, number][] = [];
  for (const block of blocks) {
    if (block.type !== 'Table') continue;
    const path = block.key.item.value;
    if (path[0] !== key || path[1] !== name) continue;
    const keys = block.items.filter((item) => item.type === 'KeyValue');
    const range: [number, number] = [block.loc.start.line, keys.at(-1)?.loc.end.line ?? block.loc.start.line];
    const last = ranges.at(-1);
    if (last && lines.slice(last[1], range[0] - 1).every((line) => blank(line))) last[1] = range[1];
    else ranges.push(range);
  }
  if (ranges.length === 0) return undefined;
  const drop = new Set<number>();
  for (const [start, end] of ranges) {
    for (let line = start; line <= end; line++) drop.add(line);
    const atEnd = lines.slice(end).every((line) => line.replace('\r', '') === '');
    if (atEnd && blank(lines[start - 2])) drop.add(start - 1);
    else if (blank(lines[end]) && (start === 1 || blank(lines[start - 2]))) drop.add(end + 1);
  }
  return lines.filter((_, i) => !drop.has(i + 1)).join('\n');
}

export function openTomlConfig(file: string, text: string, key: string, name: string): ConfigDocument {
  const parsed = parseToml(file, text);
  const servers = serversOf(file, parsed, key);
  const matches = (next: string, value: Record<string, unknown> | undefined): boolean => {
    try {
      checkEdit(file, name, parseToml(file, next), expectedAfter(parsed, key, name, value));
      return true;
    } catch {
      return false;
    }
  };
  const checked = (next: string, value: Record<string, unknown> | undefined): string => {
    checkEdit(file, name, parseToml(file, next), expectedAfter(parsed, key, name, value));
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
      const cut = withoutTables(text, key, name);
      if (cut !== undefined && matches(cut, undefined)) return cut;
      return checked(patch(text, expectedAfter(parsed, key, name, undefined)), undefined);
    },
  };
}
