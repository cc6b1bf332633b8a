/**
 * Reading JSON Schema documents as they arrive (draft-07 and 2020-12 alike, and whatever else a
 * server sends): the shape checks the translator relies on, local `$ref` resolution, and the
 * annotations a declaration shows as JSDoc.
 *
 * Only local references resolve: `#`, JSON pointers (`#/$defs/a~1b`, percent-encoded or not) and
 * plain-name anchors (`#node`, from `$anchor` or a draft-07 `$id: "#node"`). Anything else is
 * reported, never fetched: typegen runs with no network.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { Doc } from './ts-type.ts';

export type SchemaObject = { [key: string]: JsonValue };

/** A location in a document: the JSON pointer's segments, unescaped. */
export type Pointer = readonly string[];

/** A schema in object form: not `true`/`false`, and not a value of some other kind where a schema belongs. */
export function isSchemaObject(value: JsonValue | undefined): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `$ref` of a schema, with the 2019-09 `$recursiveRef` and 2020-12 `$dynamicRef` read statically. */
export function refOf(schema: SchemaObject): string | undefined {
  for (const keyword of ['$ref', '$recursiveRef', '$dynamicRef']) {
    const value = schema[keyword];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** `#/a~1b/0` for a pointer, as a schema author would write it. */
export function formatPointer(pointer: Pointer): string {
  return `#${pointer.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/** The value at `pointer`, or undefined when the document has nothing there. */
function valueAt(root: JsonValue, pointer: Pointer): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const segment of pointer) {
    if (Array.isArray(current)) {
      current = /^(0|[1-9][0-9]*)$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (isSchemaObject(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

export type Resolved = { pointer: Pointer; schema: JsonValue } | { error: string };

/** Resolutions by document and reference: an anchor is searched for through the whole document. */
const resolutions = new WeakMap<object, Map<string, Resolved>>();

/** Resolves a local `$ref` against its document (once per document and reference). */
export function resolveRef(root: JsonValue, ref: string): Resolved {
  if (typeof root !== 'object' || root === null) return resolve(root, ref);
  let known = resolutions.get(root);
  if (known === undefined) {
    known = new Map();
    resolutions.set(root, known);
  }
  let resolved = known.get(ref);
  if (resolved === undefined) {
    resolved = resolve(root, ref);
    known.set(ref, resolved);
  }
  return resolved;
}

function resolve(root: JsonValue, ref: string): Resolved {
  const unresolved = { error: `unresolved $ref ${ref}` };
  if (!ref.startsWith('#')) return { error: `unresolved $ref ${ref} (only local references resolve)` };
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return unresolved;
  }
  let pointer: string[] | undefined;
  if (fragment === '') pointer = [];
  else if (fragment.startsWith('/')) {
    pointer = fragment
      .slice(1)
      .split('/')
      .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  } else pointer = findAnchor(root, fragment, []);
  if (pointer === undefined) return unresolved;
  const schema = valueAt(root, pointer);
  return schema === undefined ? unresolved : { pointer, schema };
}

/** The location of the subschema that declares `anchor`, searching depth first in document order. */
function findAnchor(schema: JsonValue, anchor: string, at: Pointer): string[] | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (schema.$anchor === anchor || schema.$id === `#${anchor}`) return [...at];
  for (const [path, sub] of subschemas(schema)) {
    const found = findAnchor(sub, anchor, [...at, ...path]);
    if (found) return found;
  }
  return undefined;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_SINGLES = [
  'items', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems',
  'propertyNames', 'contains', 'not', 'if', 'then', 'else',
]; // biome-ignore format: a word list reads better packed

/**
 * True when `pointer` ends at a `$defs`/`definitions` entry. Segments are read as the keywords
 * they are: in `properties/$defs`, `$defs` is a property name, not the keyword.
 */
export function isDefinition(pointer: Pointer): boolean {
  for (let i = 0; i < pointer.length; i++) {
    const keyword = pointer[i] ?? '';
    const indexed = /^[0-9]+$/.test(pointer[i + 1] ?? '');
    if (SCHEMA_MAPS.includes(keyword)) {
      if (i + 2 === pointer.length) return keyword === '$defs' || keyword === 'definitions';
      i++;
    } else if (SCHEMA_LISTS.includes(keyword) || (keyword === 'items' && indexed)) i++;
  }
  return false;
}

/** The subschemas directly under a schema, each with its path from it, in document order of keywords. */
function subschemas(schema: SchemaObject): [string[], JsonValue][] {
  const found: [string[], JsonValue][] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.includes(keyword) && isSchemaObject(value)) {
      for (const [key, sub] of Object.entries(value)) found.push([[keyword, key], sub]);
    } else if ((SCHEMA_LISTS.includes(keyword) || keyword === 'items') && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) found.push([[keyword, String(i)], sub]);
    } else if (SCHEMA_SINGLES.includes(keyword) && value !== undefined) {
      found.push([[keyword], value]);
    }
  }
  return found;
}

/** The annotations a property or declaration shows: description, default, format, deprecated. */
export function docOf(schema: JsonValue | undefined): Doc | undefined {
  if (!isSchemaObject(schema)) return undefined;
  const doc: Doc = {};
  if (typeof schema.description === 'string' && schema.description.trim() !== '') {
    doc.description = schema.description;
  }
  if (schema.default !== undefined) doc.default = schema.default;
  if (typeof schema.format === 'string' && schema.format !== '') doc.format = schema.format;
  if (schema.deprecated === true) doc.deprecated = true;
  return Object.keys(doc).length === 0 ? undefined : doc;
}

/** Every `$ref` under a schema, itself included, in document order. */
export function refsUnder(schema: JsonValue): string[] {
  if (!isSchemaObject(schema)) return [];
  const own = refOf(schema);
  const nested = subschemas(schema).flatMap(([, sub]) => refsUnder(sub));
  return own === undefined ? nested : [own, ...nested];
}
