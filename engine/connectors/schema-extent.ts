/**
 * How big a JSON Schema is once its local `$ref`s are followed: the JSON values it amounts to and
 * how deep they nest. Its serialized size alone says little: 2 KB of definitions that each refer
 * twice to the next amount to millions of values, and everything that reads a schema by following
 * its references (typegen above all) pays for each one. A reference to a location already being
 * followed (recursion: trees, lists) counts no further, as the printers print it by name.
 *
 * Measuring stops as soon as either limit is passed, so it costs at most the limits themselves
 * (and recursion never goes deeper than `maxDepth`: following a reference is a level); a location
 * reached again is counted from memory, not walked again.
 */
import type { JsonValue } from '../contracts/names.ts';
import { formatPointer, isSchemaObject, refOf, resolveRef } from '../typegen/schema.ts';

export interface SchemaExtent {
  /** JSON values (objects, arrays and scalars alike), each reference counted as its target. */
  values: number;
  /** Levels of objects and arrays, each reference followed counting as one more. */
  depth: number;
}

interface Measured {
  values: number;
  height: number;
}

/**
 * The extent of `document`, exact up to the limits: once past `maxValues` or `maxDepth`, the
 * numbers returned are past them too, and measuring has stopped.
 */
export function schemaExtent(document: JsonValue, maxDepth: number, maxValues: number): SchemaExtent {
  const remembered = new Map<string, Measured>();
  const open = new Set<string>();
  let values = 0;
  let tooMany = false;
  let tooDeep = false;
  let over = false;
  const check = (height: number) => {
    tooMany ||= values > maxValues;
    tooDeep ||= height > maxDepth;
    over = tooMany || tooDeep;
  };

  const visit = (value: JsonValue, depth: number): Measured => {
    if (over) return { values: 0, height: 0 };
    if (typeof value !== 'object' || value === null) {
      values++;
      check(0);
      return { values: 1, height: 0 };
    }
    values++;
    check(depth);
    if (over) return { values: 1, height: 1 };
    const measured: Measured = { values: 1, height: 1 };
    const add = (part: Measured, levels: number) => {
      measured.values += part.values;
      measured.height = Math.max(measured.height, part.height + levels);
    };
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      add(visit(child, depth + 1), 1);
      if (over) return measured;
    }
    const ref = isSchemaObject(value) ? refOf(value) : undefined;
    const target = ref === undefined ? undefined : resolveRef(document, ref);
    if (target === undefined || 'error' in target) return measured;
    const key = formatPointer(target.pointer);
    if (open.has(key)) return measured;
    let known = remembered.get(key);
    if (known === undefined) {
      open.add(key);
      known = visit(target.schema, depth + 1);
      open.delete(key);
      if (!over) remembered.set(key, known);
    } else {
      values += known.values;
      check(depth + known.height);
    }
    // Following a reference is a level, as it is a step deeper for every reader that follows it.
    add(known, 1);
    return measured;
  };

  const measured = visit(document, 1);
  return {
    values: tooMany ? Math.max(values, maxValues + 1) : values,
    depth: tooDeep ? Math.max(measured.height, maxDepth + 1) : measured.height,
  };
}
