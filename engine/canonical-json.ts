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

/**
 * How deeply `value` nests (a scalar is 0, `[1]` is 1), counted without recursion and stopping
 * once past `cap`: what recursive code (canonicalJson, JSON.stringify) can take is checked first.
 */
export function nestingDepth(value: unknown, cap: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > cap) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, inner]);
  }
  return deepest;
}
