/**
 * A schema's own type keywords (`const`, `enum`, `type` and the object and array keywords)
 * as a TypeScript type. Subschemas are translated through `at`, which memoizes, resolves and
 * hoists them; this module only decides shapes:
 *
 * - `integer` is `number`; an unknown `type` name is `unknown` with a comment saying so;
 * - no `type` but object keywords (`properties`, `required`, …) is an object, array keywords an array;
 *   a schema with neither (description only) says nothing about its value: undefined here, `unknown` in the end;
 * - objects list required members first; `additionalProperties: false` or absent allows only the
 *   declared members (an object declaring none is any object, or none at all when false); `true` or a
 *   schema adds an index signature, whose type also unions every member's type (and `undefined` when one is
 *   optional) so the declaration compiles; `patternProperties` feed the same signature;
 * - a `required` name missing from `properties` is still a required member, typed by what the object
 *   allows for other keys;
 * - tuples: `prefixItems` + `items` (2020-12) or an `items` array + `additionalItems` (draft-07);
 *   elements past `minItems` are optional; a closed tuple has no rest.
 */
import type { JsonValue } from '../contracts/names.ts';
import { docOf, isSchemaObject, type Pointer, refOf, resolveRef, type SchemaObject } from './schema.ts';
import {
  type IndexSignature,
  keyword,
  literalOf,
  loose,
  type Member,
  NEVER,
  objectType,
  type TsType,
  UNDEFINED,
  UNKNOWN,
  union,
} from './ts-type.ts';

/** What shapes need from the translator. */
export interface Locations {
  /** The document being translated, for resolving references. */
  readonly document: JsonValue;
  /** The type of the subschema at `pointer`: memoized, resolved, hoisted as it should be. */
  at(pointer: Pointer, schema: JsonValue): TsType;
}

const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties'];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems'];

/** The type a schema's own keywords give, or undefined when they say nothing about the value. */
export function ownType(schema: SchemaObject, pointer: Pointer, locations: Locations): TsType | undefined {
  if (Object.hasOwn(schema, 'const') && schema.const !== undefined) return literalOf(schema.const);
  const declared = schema.type;
  const names = declared === undefined ? undefined : Array.isArray(declared) ? declared : [declared];
  if (Array.isArray(schema.enum)) return enumType(schema.enum, names);
  if (names !== undefined) {
    const valid = names.filter((name): name is string => typeof name === 'string' && TYPE_NAMES.has(name));
    if (valid.length === 0 || valid.length !== names.length) {
      return loose(`invalid type ${JSON.stringify(declared)}`);
    }
    return union(valid.map((name) => typeNamed(name, schema, pointer, locations)));
  }
  if (OBJECT_KEYWORDS.some((k) => schema[k] !== undefined)) return objectShape(schema, pointer, locations);
  if (ARRAY_KEYWORDS.some((k) => schema[k] !== undefined)) return arrayShape(schema, pointer, locations);
  return undefined;
}

function typeNamed(name: string, schema: SchemaObject, pointer: Pointer, locations: Locations): TsType {
  switch (name) {
    case 'object':
      return objectShape(schema, pointer, locations);
    case 'array':
      return arrayShape(schema, pointer, locations);
    case 'string':
    case 'boolean':
    case 'null':
      return keyword(name);
    default: // number, integer
      return keyword('number');
  }
}

/** Whether a JSON value is of a JSON Schema type. */
const IS_TYPE: Record<string, (value: JsonValue) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
  array: (value) => Array.isArray(value),
  object: (value) => isSchemaObject(value),
};

/** Enum members of the declared types (all of them if that leaves none: the author meant something). */
function enumType(values: readonly JsonValue[], names: readonly JsonValue[] | undefined): TsType {
  const fits = (value: JsonValue) =>
    names === undefined || names.some((name) => typeof name === 'string' && IS_TYPE[name]?.(value) === true);
  const kept = values.filter(fits);
  return union((kept.length > 0 ? kept : values).map(literalOf));
}

function objectShape(schema: SchemaObject, pointer: Pointer, locations: Locations): TsType {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [],
  );
  const members: Member[] = Object.entries(properties).map(([name, sub]) => {
    const type = locations.at([...pointer, 'properties', name], sub);
    return { name, optional: !required.has(name), type, doc: propertyDoc(sub, type, locations.document) };
  });

  const patterns = isSchemaObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const patternTypes = patterns.map(([pattern, sub]) => ({
    pattern,
    type: locations.at([...pointer, 'patternProperties', pattern], sub),
  }));
  const additional = schema.additionalProperties;
  const additionalType =
    additional === undefined || additional === false
      ? undefined
      : locations.at([...pointer, 'additionalProperties'], additional);

  for (const name of required) {
    if (Object.hasOwn(properties, name)) continue;
    const matching = patternTypes.filter((p) => matches(p.pattern, name)).map((p) => p.type);
    const type =
      matching.length > 0
        ? union(matching)
        : (additionalType ??
          (additional === false ? loose('required, but additionalProperties is false') : UNKNOWN));
    members.push({ name, optional: false, type });
  }

  const sources = [...(additionalType ? [additionalType] : []), ...patternTypes.map((p) => p.type)];
  let index: IndexSignature | undefined;
  if (sources.length > 0) {
    const optional = members.some((m) => m.optional);
    index = {
      type: union([...sources, ...members.map((m) => m.type), ...(optional ? [UNDEFINED] : [])]),
      patterns: additionalType === undefined ? patterns.map(([p]) => p) : undefined,
    };
  } else if (members.length === 0) {
    index = { type: additional === false ? NEVER : UNKNOWN };
  }
  const object = objectType(members, index);
  if (members.length === 0 && index?.type === UNKNOWN && patterns.length === 0) object.bare = true;
  return object;
}

function matches(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(name);
  } catch {
    return false;
  }
}

/** A property's JSDoc: its own annotations, or those of what it refers to when that is printed in place. */
function propertyDoc(sub: JsonValue, type: TsType, document: JsonValue) {
  const own = docOf(sub);
  const ref = isSchemaObject(sub) ? refOf(sub) : undefined;
  if (ref === undefined || own?.description !== undefined || type.kind === 'named') return own;
  const target = resolveRef(document, ref);
  if ('error' in target) return own;
  const borrowed = docOf(target.schema);
  return borrowed === undefined ? own : { ...borrowed, ...own };
}

function arrayShape(schema: SchemaObject, pointer: Pointer, locations: Locations): TsType {
  const count = (value: JsonValue | undefined) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  let elements: readonly JsonValue[];
  let rest: JsonValue | undefined;
  let keys: [string, string];
  if (Array.isArray(schema.prefixItems)) {
    [elements, rest, keys] = [schema.prefixItems, schema.items, ['prefixItems', 'items']];
  } else if (Array.isArray(schema.items)) {
    [elements, rest, keys] = [schema.items, schema.additionalItems, ['items', 'additionalItems']];
  } else {
    const items = schema.items;
    if (items === false) return { kind: 'tuple', elements: [] };
    const element = items === undefined ? UNKNOWN : locations.at([...pointer, 'items'], items);
    return { kind: 'array', element };
  }
  const minItems = count(schema.minItems) ?? 0;
  const maxItems = count(schema.maxItems);
  const shown = maxItems === undefined ? elements : elements.slice(0, maxItems);
  const open = rest !== false && (maxItems === undefined || maxItems > elements.length);
  return {
    kind: 'tuple',
    elements: shown.map((sub, i) => ({
      type: locations.at([...pointer, keys[0], String(i)], sub),
      optional: i >= minItems,
    })),
    rest: !open ? undefined : rest === undefined ? UNKNOWN : locations.at([...pointer, keys[1]], rest),
  };
}
