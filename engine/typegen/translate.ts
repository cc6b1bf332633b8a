/**
 * JSON Schema -> the type model, one document (a tool's input or output schema) at a time, into a
 * registry shared by the namespace. Every subschema is a location (its JSON pointer); a location is
 * translated once, whether reached by walking or by `$ref`, and becomes a named type when it
 * should be printable on its own:
 *
 * - the document's root (the tool's input or output);
 * - a `$defs`/`definitions` entry, unless it is a scalar, a literal union or an array of those;
 * - a location its own translation reaches again (recursion), whatever it is;
 * - anything with object structure (an object with members, or a union/intersection holding one),
 *   and literal unions longer than {@link LONG_UNION}.
 *
 * `$defs` entries and titled schemas with the same content (their references included) in several
 * tools are one type. A schema that is not a schema, a `$ref` that resolves nowhere, a `type` that
 * is no type: each is `unknown` at that spot with the reason, never an error. `$ref` siblings
 * apply alongside it (2020-12); `allOf` is an intersection, `anyOf`/`oneOf` a union; `nullable: true`
 * (OpenAPI 3.0) adds `null`.
 */
import { canonicalJson } from '../canonical-json.ts';
import type { JsonValue } from '../contracts/names.ts';
import { NameRegistry, nameAt, pascalCase } from './names.ts';
import {
  docOf,
  formatPointer,
  isDefinition,
  isSchemaObject,
  type Pointer,
  refOf,
  refsUnder,
  resolveRef,
} from './schema.ts';
import { type Locations, ownType } from './shapes.ts';
import { intersection, loose, type NamedType, NEVER, NULL, type TsType, UNKNOWN, union } from './ts-type.ts';

/** A literal union with more members than this is hoisted like an object. */
const LONG_UNION = 12;

/** Named types of one namespace, shared by all its tools' documents. */
export class TypeRegistry {
  readonly names: NameRegistry;
  /** Every named type, by name, in the order they were named. */
  readonly types = new Map<string, NamedType>();
  /** Translations of `$defs` entries and titled schemas, by name and content. */
  readonly shared = new Map<string, TsType>();

  constructor(reserved: Iterable<string>) {
    this.names = new NameRegistry(reserved);
  }

  /** A new named type under `base` (or `base2`, …), of unknown type until translated. */
  name(base: string, origin: NamedType['origin']): NamedType {
    const node: NamedType = { name: this.names.allocate(base), origin, recursive: false, type: UNKNOWN };
    this.types.set(node.name, node);
    return node;
  }
}

/** Translates `document`, a tool's input or output schema, into `root` and the named types it reaches. */
export function translateDocument(registry: TypeRegistry, document: JsonValue, root: NamedType): void {
  const memo = new Map<string, TsType>();
  const open = new Map<string, { node: NamedType | undefined }>();
  const locations: Locations = { document, at };

  function at(pointer: Pointer, schema: JsonValue): TsType {
    const key = JSON.stringify(pointer);
    const done = memo.get(key);
    if (done !== undefined) return done;
    const pending = open.get(key);
    if (pending !== undefined) {
      pending.node ??= registry.name(baseName(pointer, schema), 'inner');
      pending.node.recursive = true;
      return { kind: 'named', target: pending.node };
    }

    const def = isDefinition(pointer);
    const title = isSchemaObject(schema) && typeof schema.title === 'string' ? schema.title.trim() : '';
    const identity = pointer.length > 0 && (def || title !== '') ? identityOf(pointer, schema) : undefined;
    const known = identity === undefined ? undefined : registry.shared.get(identity);
    if (known !== undefined) {
      memo.set(key, known);
      return known;
    }

    const entry = {
      node: pointer.length === 0 ? root : def ? registry.name(baseName(pointer, schema), 'def') : undefined,
    };
    open.set(key, entry);
    const type = schemaType(schema, pointer);
    open.delete(key);

    let result = type;
    if (entry.node !== undefined) {
      entry.node.type = type;
      entry.node.doc ??= docOf(schema);
      const inline = entry.node.origin === 'def' && !entry.node.recursive && isSimple(type);
      if (!inline) result = { kind: 'named', target: entry.node };
    } else if (isHoistable(type)) {
      const node = registry.name(baseName(pointer, schema), 'inner');
      node.type = type;
      node.doc = docOf(schema);
      result = { kind: 'named', target: node };
    }
    memo.set(key, result);
    if (identity !== undefined) registry.shared.set(identity, result);
    return result;
  }

  function schemaType(schema: JsonValue, pointer: Pointer): TsType {
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isSchemaObject(schema)) return loose(`not a schema: ${JSON.stringify(schema).slice(0, 40)}`);
    const parts: TsType[] = [];
    const ref = refOf(schema);
    if (ref !== undefined) {
      const target = resolveRef(document, ref);
      parts.push('error' in target ? loose(target.error) : at(target.pointer, target.schema));
    }
    const own = ownType(schema, pointer, locations);
    if (own !== undefined) parts.push(own);
    const list = (keyword: string) => {
      const value = schema[keyword];
      return Array.isArray(value) && value.length > 0
        ? value.map((sub, i) => at([...pointer, keyword, String(i)], sub))
        : undefined;
    };
    parts.push(...(list('allOf') ?? []));
    for (const keyword of ['anyOf', 'oneOf']) {
      const members = list(keyword);
      if (members) parts.push(union(members));
    }
    const type = parts.length === 0 ? UNKNOWN : intersection(parts);
    return schema.nullable === true || schema['x-nullable'] === true ? union([type, NULL]) : type;
  }

  function baseName(pointer: Pointer, schema: JsonValue): string {
    const title = isSchemaObject(schema) && typeof schema.title === 'string' ? schema.title.trim() : '';
    if (title !== '' && !isDefinition(pointer)) return pascalCase(title);
    return nameAt(root.name, pointer);
  }

  /** Name and content, with everything the location refers to: equal only when the types are. */
  function identityOf(pointer: Pointer, schema: JsonValue): string | undefined {
    const closure = new Map<string, JsonValue>();
    const visit = (sub: JsonValue) => {
      for (const ref of refsUnder(sub)) {
        const target = resolveRef(document, ref);
        const key = 'error' in target ? `?${ref}` : formatPointer(target.pointer);
        if (closure.has(key)) continue;
        closure.set(key, 'error' in target ? null : target.schema);
        if (!('error' in target)) visit(target.schema);
      }
    };
    visit(schema);
    try {
      const refs = [...closure].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `${baseName(pointer, schema)}\n${canonicalJson([schema, refs])}`;
    } catch {
      return undefined; // a value canonical JSON cannot carry: no sharing, nothing worse
    }
  }

  at([], document);
}

/** isSimple's answers: an inlined `$defs` entry is met once per reference to it, and types are never changed. */
const simple = new WeakMap<TsType, boolean>();

/** Scalars, literals, unions of those and arrays of those: what a `$defs` entry is inlined as. */
function isSimple(type: TsType): boolean {
  let known = simple.get(type);
  if (known === undefined) {
    known = simpleShape(type);
    simple.set(type, known);
  }
  return known;
}

function simpleShape(type: TsType): boolean {
  switch (type.kind) {
    case 'keyword':
    case 'literal':
    case 'loose':
    case 'named':
      return true;
    case 'array':
      return isSimple(type.element);
    case 'union':
      return type.members.length <= LONG_UNION && type.members.every(isSimple);
    default:
      return false;
  }
}

/** Object structure, or a long literal union: worth a name when it sits deep. */
export function isHoistable(type: TsType): boolean {
  switch (type.kind) {
    case 'object':
      return type.members.length > 0;
    case 'union':
      return type.members.length > LONG_UNION || type.members.some(isStructural);
    case 'intersection':
      return type.members.some(isStructural);
    default:
      return false;
  }
}

function isStructural(type: TsType): boolean {
  if (type.kind !== 'named') return isHoistable(type);
  return type.target.origin === 'inner' && !type.target.recursive && isHoistable(type.target.type);
}
