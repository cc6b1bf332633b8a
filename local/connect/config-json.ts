/**
 * JSON and JSONC harness files, edited in place with `jsonc-parser`: `modify` computes the one
 * insertion or removal, and only the inserted text is formatted (with the file's own indent and
 * line ending), so sibling entries, comments and key order stay byte for byte. `json` files
 * (Claude Code, Claude Desktop) must be strict JSON; `jsonc` (Cursor) may hold comments and
 * trailing commas. Removing an entry takes its own lines (and the comments inside it) and keeps
 * the next entry on a line of its own. A file that does not parse is named with its line and column.
 */
import { applyEdits, type Edit, type FormattingOptions, format, modify } from 'jsonc-parser';
import { HubError } from '../../engine/errors.ts';
import { parseJsonText } from '../json-text.ts';
import {
  type ConfigDocument,
  checkEdit,
  expectedAfter,
  isObject,
  type ParsedObject,
  serversOf,
} from './config-document.ts';

/** The indent and line ending the file already uses (two spaces and LF for a new file). */
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent?.length ?? 2, eol };
}

function parseStrictly(file: string, text: string, jsonc: boolean): ParsedObject {
  if (text.trim() === '') return {};
  const read = parseJsonText(text, { comments: jsonc, allowEmpty: false });
  if (!read.ok) {
    throw new HubError(
      'corrupt',
      `${file} is not valid ${jsonc ? 'JSONC' : 'JSON'}: ${read.problem} at line ${read.line}, column ${read.column}; fix it (or move it away), then run connect again`,
    );
  }
  const parsed = read.value;
  if (!isObject(parsed)) {
    throw new HubError(
      'corrupt',
      `${file} does not hold a JSON object; fix it (or move it away), then run connect again`,
    );
  }
  return parsed;
}

/** `text` with `path` set to `value`: one edit, and only its own text formatted. */
function setAt(text: string, path: string[], value: unknown, options: FormattingOptions): string {
  const edits = modify(text, path, value, {});
  const [edit] = edits;
  if (edits.length !== 1 || !edit) return applyEdits(text, edits);
  const next = applyEdits(text, [edit]);
  // A file on one line holding anything (minified) gets the entry on that line too.
  if (!text.trimEnd().includes('\n') && text.includes('"')) return next;
  const start = edit.offset;
  const end = start + edit.content.length;
  // The range reaches one character either side so the braces of an empty object get their
  // line breaks; edits outside the inserted text (a sibling's own layout) are left out.
  const range = {
    offset: Math.max(0, start - 1),
    length: Math.min(next.length, end + 1) - Math.max(0, start - 1),
  };
  const layout = format(next, range, options).filter(
    (change) => change.offset >= start && change.offset + change.length <= end,
  );
  return applyEdits(next, layout);
}

/**
 * A removal that would join the next property onto the line of the `{` before it (modify removes
 * the first property through the next one's indent) keeps that line break and indent.
 */
const keepLineStart =
  (text: string) =>
  (edit: Edit): Edit => {
    const removed = text.slice(edit.offset, edit.offset + edit.length);
    const indent = /\r?\n[ \t]*$/.exec(removed)?.[0];
    if (edit.content !== '' || indent === undefined || !/^\s*\r?\n/.test(removed)) return edit;
    return { ...edit, length: edit.length - indent.length };
  };

export function openJsonConfig(
  file: string,
  text: string,
  jsonc: boolean,
  key: string,
  name: string,
): ConfigDocument {
  const parsed = parseStrictly(file, text, jsonc);
  const servers = serversOf(file, parsed, key);
  const options = formattingOf(text);
  const checked = (next: string, value: Record<string, unknown> | undefined): string => {
    checkEdit(file, name, parseStrictly(file, next, jsonc), expectedAfter(parsed, key, name, value));
    return next;
  };
  return {
    entry: servers?.[name],
    withEntry(value) {
      if (text.trim() === '')
        return checked(`${JSON.stringify({ [key]: { [name]: value } }, null, 2)}\n`, value);
      // An empty servers object is replaced whole, so its braces are laid out too.
      const next =
        servers !== undefined && Object.keys(servers).length === 0
          ? setAt(text, [key], { [name]: value }, options)
          : setAt(text, [key, name], value, options);
      return checked(next, value);
    },
    withoutEntry() {
      if (servers?.[name] === undefined) return text;
      const path = Object.keys(servers).length === 1 ? [key] : [key, name];
      return checked(applyEdits(text, modify(text, path, undefined, {}).map(keepLineStart(text))), undefined);
    },
  };
}
