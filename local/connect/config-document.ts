/**
 * One harness config file as text, opened on one entry `<serversKey>.<name>` (`capabilities`, or
 * for `connect --replace` and its undo a server the hub already has), with the one edit connect
 * makes to it: set or remove that entry, everything else left as it was (comments, key order,
 * formatting, unrelated settings). Several entries are edited one after the other, opening the
 * text each edit produced. Each format's editor (config-json.ts, config-toml.ts) re-parses what
 * it produced and checks it is the original plus or minus exactly that entry before handing it
 * back, so an edit the library got wrong is refused rather than written.
 */
import { isDeepStrictEqual } from 'node:util';
import { HubError } from '../../engine/errors.ts';

export interface ConfigDocument {
  /** The entry as it is in the file, or undefined when there is none. */
  readonly entry: unknown;
  /** The file's text with the entry set to `value`. */
  withEntry(value: Record<string, unknown>): string;
  /** The file's text without the entry (and without the servers table, when it is left empty). */
  withoutEntry(): string;
}

export type ParsedObject = Record<string, unknown>;

export const isObject = (value: unknown): value is ParsedObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` with every table as a plain object: a TOML parser's tables have no prototype, and
 * `isDeepStrictEqual` compares prototypes too. Dates and numbers stay what they are.
 */
export function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainCopy(inner)]));
}

/** The parsed document with `<key>.<name>` set to `value`, or removed (and an emptied table too). */
export function expectedAfter(
  parsed: ParsedObject,
  key: string,
  name: string,
  value: Record<string, unknown> | undefined,
): ParsedObject {
  const servers = isObject(parsed[key]) ? { ...parsed[key] } : {};
  if (value === undefined) delete servers[name];
  else servers[name] = value;
  const next = { ...parsed };
  if (value === undefined && Object.keys(servers).length === 0) delete next[key];
  else next[key] = servers;
  return next;
}

/** Throws unless `actual` is `expected`: the edit touched nothing but the entry `name`. */
export function checkEdit(file: string, name: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new HubError(
      'internal',
      `editing ${file} would have changed more than the "${name}" entry, so nothing was written; edit the file by hand (the entry to add is printed by \`capabilities hub serve --http\`)`,
    );
  }
}

/** The servers table of `parsed`, refusing a file where it is something else. */
export function serversOf(file: string, parsed: ParsedObject, key: string): ParsedObject | undefined {
  const servers = parsed[key];
  if (servers === undefined) return undefined;
  if (!isObject(servers)) {
    throw new HubError(
      'corrupt',
      `${file}: "${key}" is not a table of servers; fix it by hand, then run connect again`,
    );
  }
  return servers;
}
