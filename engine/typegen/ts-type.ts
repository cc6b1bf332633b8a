/**
 * The TypeScript type model typegen translates JSON Schema into and prints from: a small tree
 * of type expressions whose `named` leaves point at hoistable types (a graph, so recursion is
 * representable). Smart constructors normalize as they build, so every printer sees the same
 * canonical shape:
 *
 * - a union is flat, duplicate-free, without `never`, `null` last; a `unknown` member absorbs it;
 *   literals a keyword already covers are dropped (`"a" | string` is `string`), `null` and
 *   `undefined` go last;
 * - an intersection is flat, without `unknown`, and `never` absorbs it; plain object literals in it
 *   are merged into one; a bare `{ [key: string]: unknown }` beside object types adds nothing and goes;
 * - a `loose` type is `unknown` with the reason the schema could not say more, printed as a comment.
 */
import type { JsonValue } from '../contracts/names.ts';

export type Keyword = 'string' | 'number' | 'boolean' | 'null' | 'undefined' | 'unknown' | 'never';

/** What a property or a declaration says about itself, taken from its schema. */
export interface Doc {
  description?: string | undefined;
  default?: JsonValue | undefined;
  format?: string | undefined;
  deprecated?: boolean | undefined;
}

export interface Member {
  name: string;
  optional: boolean;
  type: TsType;
  doc?: Doc | undefined;
}

export interface IndexSignature {
  type: TsType;
  /** Key patterns (patternProperties) the signature stands for, for its JSDoc. */
  patterns?: string[] | undefined;
}

export interface TupleElement {
  type: TsType;
  optional: boolean;
}

export type TsType =
  | { kind: 'keyword'; name: Keyword }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'loose'; reason: string }
  | { kind: 'array'; element: TsType }
  | { kind: 'tuple'; elements: TupleElement[]; rest?: TsType | undefined }
  | { kind: 'object'; members: Member[]; index?: IndexSignature | undefined; bare?: boolean | undefined }
  | { kind: 'union'; members: TsType[] }
  | { kind: 'intersection'; members: TsType[] }
  | { kind: 'named'; target: NamedType };

export type ObjectType = Extract<TsType, { kind: 'object' }>;

/**
 * A type that can be printed by name: a `$defs` entry, a deep or recursive type, a tool's input
 * or output. Names are unique within a namespace and derived from the manifest alone.
 */
export interface NamedType {
  name: string;
  /** A tool's input or output, a `$defs`/`definitions` entry, or anything else (`inner`). */
  origin: 'input' | 'output' | 'def' | 'inner';
  /** Reached again from within itself. Only a non-recursive inner type is ever printed in place. */
  recursive: boolean;
  type: TsType;
  doc?: Doc | undefined;
}

export const UNKNOWN: TsType = { kind: 'keyword', name: 'unknown' };
export const NEVER: TsType = { kind: 'keyword', name: 'never' };
export const NULL: TsType = { kind: 'keyword', name: 'null' };
export const UNDEFINED: TsType = { kind: 'keyword', name: 'undefined' };

export function keyword(name: Keyword): TsType {
  return { kind: 'keyword', name };
}

export function loose(reason: string): TsType {
  return { kind: 'loose', reason };
}

const isKeyword = (t: TsType, name: Keyword) => t.kind === 'keyword' && t.name === name;

/** The keyword that covers a literal of this value. */
function keywordOf(value: string | number | boolean): Keyword {
  return typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'boolean';
}

/** A key that is equal for types that are certainly equal; undefined when equality is not cheap. */
function identityKey(t: TsType): string | undefined {
  if (t.kind === 'keyword') return `k:${t.name}`;
  if (t.kind === 'literal') return `l:${typeof t.value}:${String(t.value)}`;
  return undefined;
}

export function union(types: readonly TsType[]): TsType {
  const flat = types.flatMap((t) => (t.kind === 'union' ? t.members : [t]));
  if (flat.some((t) => isKeyword(t, 'unknown'))) return UNKNOWN;
  const seenKeys = new Set<string>();
  const seenNamed = new Set<NamedType>();
  let members: TsType[] = [];
  for (const t of flat) {
    if (isKeyword(t, 'never')) continue;
    const key = identityKey(t);
    if (key !== undefined) {
      if (seenKeys.has(key)) continue;
      seenKeys.add(key);
    } else if (t.kind === 'named') {
      if (seenNamed.has(t.target)) continue;
      seenNamed.add(t.target);
    }
    members.push(t);
  }
  if (seenKeys.has('l:boolean:true') && seenKeys.has('l:boolean:false') && !seenKeys.has('k:boolean')) {
    const at = members.findIndex((t) => t.kind === 'literal' && typeof t.value === 'boolean');
    members.splice(at, 0, keyword('boolean'));
    seenKeys.add('k:boolean');
  }
  members = members.filter((t) => t.kind !== 'literal' || !seenKeys.has(`k:${keywordOf(t.value)}`));
  const last = (t: TsType) => isKeyword(t, 'null') || isKeyword(t, 'undefined');
  members = [...members.filter((t) => !last(t)), ...members.filter(last)];
  if (members.length === 0) return NEVER;
  if (members.length === 1 && members[0]) return members[0];
  return { kind: 'union', members };
}

/** True for types that certainly are objects (so a bare `{ [key: string]: unknown }` adds nothing). */
function isObjectish(t: TsType, seen: ReadonlySet<NamedType> = new Set()): boolean {
  switch (t.kind) {
    case 'object':
      return true;
    case 'named':
      return !seen.has(t.target) && isObjectish(t.target.type, new Set([...seen, t.target]));
    case 'union':
    case 'intersection':
      return t.members.every((m) => isObjectish(m, seen));
    default:
      return false;
  }
}

export function intersection(types: readonly TsType[]): TsType {
  let members = types
    .flatMap((t) => (t.kind === 'intersection' ? t.members : [t]))
    .filter((t) => !isKeyword(t, 'unknown'));
  if (members.some((t) => isKeyword(t, 'never'))) return NEVER;
  const isBare = (t: TsType) => t.kind === 'object' && t.bare === true;
  if (members.some((t) => !isBare(t)) && members.every((t) => isObjectish(t))) {
    members = members.filter((t) => !isBare(t));
  } else {
    members = members.filter((t, i) => !isBare(t) || members.findIndex(isBare) === i);
  }
  const plain = members.filter((t): t is ObjectType => t.kind === 'object' && t.index === undefined);
  if (plain.length > 1) {
    const merged = mergeObjects(plain);
    const first = members.indexOf(plain[0] as TsType);
    members = members.filter((t) => !plain.includes(t as ObjectType));
    members.splice(first, 0, merged);
  }
  if (members.length === 0) return UNKNOWN;
  if (members.length === 1 && members[0]) return members[0];
  return { kind: 'intersection', members };
}

/** Merges object literals without index signatures: a member in several is in both (`&`), optional only if optional in all. */
function mergeObjects(objects: readonly ObjectType[]): ObjectType {
  const byName = new Map<string, Member>();
  for (const object of objects) {
    for (const member of object.members) {
      const seen = byName.get(member.name);
      byName.set(
        member.name,
        seen === undefined
          ? member
          : {
              name: member.name,
              optional: seen.optional && member.optional,
              type: intersection([seen.type, member.type]),
              doc: seen.doc ?? member.doc,
            },
      );
    }
  }
  return objectType([...byName.values()]);
}

/** An object type with required members first, each group in the order given. */
export function objectType(members: readonly Member[], index?: IndexSignature): ObjectType {
  const ordered = [...members.filter((m) => !m.optional), ...members.filter((m) => m.optional)];
  return index === undefined
    ? { kind: 'object', members: ordered }
    : { kind: 'object', members: ordered, index };
}

/** The literal type of a JSON value: `const` and `enum` members. Objects and arrays become exact shapes. */
export function literalOf(value: JsonValue): TsType {
  if (value === null) return NULL;
  if (typeof value === 'number')
    return Number.isFinite(value) ? { kind: 'literal', value } : keyword('number');
  if (typeof value === 'string' || typeof value === 'boolean') return { kind: 'literal', value };
  if (Array.isArray(value)) {
    return { kind: 'tuple', elements: value.map((item) => ({ type: literalOf(item), optional: false })) };
  }
  const members = Object.entries(value).map(([name, item]) => ({
    name,
    optional: false,
    type: literalOf(item),
  }));
  return members.length === 0
    ? { kind: 'object', members: [], index: { type: NEVER } }
    : { kind: 'object', members };
}
