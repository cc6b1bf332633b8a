/**
 * Tool addresses: `namespace.tool`, where the tool part is the source's own name made a
 * JavaScript identifier (spec: Concepts, Tool address).
 *
 * Rules, in order:
 * - a name that already is an identifier is kept as it is (`create_issue`, `getUser`);
 * - otherwise it is split on characters an identifier cannot hold and joined in camelCase
 *   (`resolve-library-id` -> `resolveLibraryId`, `repo.get` -> `repoGet`);
 * - a leading digit gets `_` in front; an empty result becomes `tool`; a name every object already
 *   has (`constructor`, `toString`, `__proto__`), or one the language looks up on any object
 *   (`then` for `await`, `toJSON` for `JSON.stringify`), gets `_` after;
 * - collisions within a namespace get `_2`, `_3`, … in the order of the source's names sorted
 *   by code unit, so the same tool list always yields the same addresses.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Names a tool cannot take on a namespace (a frozen plain object) without changing what the
 * language does with it: what every object has (`constructor`, `toString`, `valueOf`, …), and the
 * two string-keyed lookups the language makes on any object. A tool named `then` would make the
 * namespace a thenable (`await ns` calls the tool and never settles); one named `toJSON` would be
 * called by `JSON.stringify(ns)`. The other lookups on any object (string coercion and template
 * literals, `instanceof`, iteration, spreading into arrays) are symbols (`Symbol.toPrimitive`,
 * `Symbol.iterator`, …) or `toString`/`valueOf`, already here, so no tool name can reach them.
 */
const OBJECT_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
  'then',
  'toJSON',
]);

/** The identifier for one tool name, before uniqueness within its namespace. */
export function toolIdentifier(name: string): string {
  if (IDENTIFIER.test(name) && !OBJECT_NAMES.has(name)) return name;
  let id = IDENTIFIER.test(name) ? name : camelJoin(name);
  if (id === '') id = 'tool';
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (OBJECT_NAMES.has(id)) id = `${id}_`;
  return id;
}

function camelJoin(name: string): string {
  const words = name.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== '');
  return words.map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
}

/**
 * Maps each of a source's tool names to its tool part, unique within the namespace.
 * Duplicate names in the input map to one entry (a server that repeats a name is ambiguous;
 * the first wins when the manifest is built).
 */
export function toolIdentifiers(names: readonly string[]): Map<string, string> {
  const sorted = [...new Set(names)].sort();
  const taken = new Set<string>();
  const result = new Map<string, string>();
  // Names already identifiers claim their own spelling first, so `a_b` keeps `a_b` even
  // when `a-b` would also have produced it.
  const ordered = [
    ...sorted.filter((n) => toolIdentifier(n) === n),
    ...sorted.filter((n) => toolIdentifier(n) !== n),
  ];
  for (const name of ordered) {
    const base = toolIdentifier(name);
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    result.set(name, id);
  }
  return result;
}

/** `namespace.tool` */
export function toolAddress(namespace: string, tool: string): string {
  return `${namespace}.${tool}`;
}

/**
 * The namespace of an address: the text before its first dot (the whole text when it has none).
 * The one way the code reads it; `parseToolAddress` when the tool part matters too.
 */
export function namespaceOf(address: string): string {
  const dot = address.indexOf('.');
  return dot < 0 ? address : address.slice(0, dot);
}

/** Splits an address at its first dot; undefined when it has none. */
export function parseToolAddress(address: string): { namespace: string; tool: string } | undefined {
  const dot = address.indexOf('.');
  if (dot <= 0 || dot === address.length - 1) return undefined;
  return { namespace: address.slice(0, dot), tool: address.slice(dot + 1) };
}
