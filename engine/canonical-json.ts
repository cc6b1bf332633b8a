/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, `undefined` members
 * dropped, numbers as JSON.stringify writes them. The same value yields the same bytes in
 * every runtime and for every key order, which is what digests are taken over.
 */

/** Serializes `value` canonically. Throws a TypeError on values JSON cannot carry. */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON has no form for ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        // Array.from visits holes too (as undefined), where map would skip them and leave `[1,,3]`.
        const items = Array.from(value, (item) => (item === undefined ? 'null' : canonicalJson(item)));
        return `[${items.join(',')}]`;
      }
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
