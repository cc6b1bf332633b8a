/**
 * `$ref`s of an OpenAPI document, the hub's way: a reference to a component schema becomes a
 * JSON Schema `$defs` entry of the tool's schema (so a recursive schema stays finite); any other
 * local reference (a parameter, a request body, a response, a piece of a schema) is followed,
 * at most MAX_REF_HOPS deep. A cycle that never reaches a component schema, a reference deeper
 * than the cap, a schema past MAX_SCHEMA_NODES once expanded (each reference is converted once
 * and counted at every use), and a reference to another document are errors that say so (documents on the
 * document's own origin were brought in before: bundle.ts).
 */
import type { JsonValue } from '../../contracts/names.ts';
import { HubError } from '../../errors.ts';
import { isObject, type JsonObject, type OpenApiDocument } from './document.ts';

/** How many references in a row, or schema levels inside each other, the hub follows. */
export const MAX_REF_HOPS = 32;
const MAX_SCHEMA_DEPTH = 64;
/** How many schema nodes one tool's schemas may hold in all, references counted at every use. */
export const MAX_SCHEMA_NODES = 100_000;
const SCHEMA_PREFIX = '#/components/schemas/';

/** Members that hold data (examples, defaults) or OpenAPI-only notes, not schema: never walked. */
const DATA = new Set(['example', 'examples', 'default', 'const', 'enum']);
const DROPPED = new Set(['xml', 'externalDocs', 'discriminator']);
/** Members whose keys are names chosen by the document, each naming a schema. */
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function unescapeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

export class Refs {
  readonly #document: OpenApiDocument;

  constructor(document: OpenApiDocument) {
    this.#document = document;
  }

  /** The value a local `#/…` pointer names, or an error naming the reference. */
  #target(ref: string, where: string): JsonValue {
    if (!ref.startsWith('#')) throw this.#external(ref, where);
    let node: JsonValue = this.#document.root;
    for (const segment of ref.slice(1).split('/').slice(1)) {
      const key = unescapeSegment(segment);
      const next: JsonValue | undefined = Array.isArray(node)
        ? node[Number(key)]
        : isObject(node)
          ? node[key]
          : undefined;
      if (next === undefined) {
        throw new HubError('invalid_input', `${where} refers to ${ref}, which the document does not have.`, {
          detail: `the document is ${this.#document.location}`,
        });
      }
      node = next;
    }
    return node;
  }

  #external(ref: string, where: string): HubError {
    const location = this.#document.location;
    const base = /^https?:\/\//i.test(location) ? location : undefined;
    const url = URL.parse(ref, base);
    const own = base ? new URL(base).origin : undefined;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== own) {
      return new HubError(
        'denied',
        `${where} refers to ${url.origin}, another origin than the document's; the hub does not ` +
          'follow references across origins. Bundle the document into one file and add that.',
        { detail: `the reference is ${ref}; the document is ${location}` },
      );
    }
    return new HubError(
      'invalid_input',
      `${where} refers to another document (${ref}); the hub reads one document. Bundle it into ` +
        'one file (e.g. `npx @redocly/cli bundle`) and add that.',
      { detail: `the document is ${location}` },
    );
  }

  /** `node` with its references followed (a parameter, request body or response). */
  resolve(node: JsonValue, where: string): JsonValue {
    const seen: string[] = [];
    let current = node;
    while (isObject(current) && typeof current.$ref === 'string') {
      const ref = current.$ref;
      if (seen.includes(ref)) {
        throw new HubError(
          'invalid_input',
          `${where} has a $ref cycle that never reaches a definition: ${[...seen, ref].join(' → ')}. Fix the document.`,
          { detail: `the document is ${this.#document.location}` },
        );
      }
      if (seen.length >= MAX_REF_HOPS) throw this.#tooDeep(where);
      seen.push(ref);
      current = this.#target(ref, where);
    }
    return current;
  }

  #tooDeep(where: string): HubError {
    return new HubError(
      'limit',
      `${where} nests references or schemas more than ${MAX_REF_HOPS} deep (schemas ${MAX_SCHEMA_DEPTH}), past the hub's cap. Simplify the document.`,
      { detail: `the document is ${this.#document.location}` },
    );
  }

  /** A new schema conversion, collecting the component schemas its schemas use. */
  schemas(where: string): SchemaConversion {
    return new SchemaConversion(this, where, (ref) => this.#target(ref, where), this.#tooDeep(where));
  }
}

/** One tool's schemas: converted one at a time, their component schemas collected as `$defs`. */
export class SchemaConversion {
  readonly #refs: Refs;
  readonly #where: string;
  readonly #target: (ref: string) => JsonValue;
  readonly #tooDeep: HubError;
  readonly #defs = new Map<string, JsonValue>();
  /** Inlined references already converted, with their size in nodes: each is walked once. */
  readonly #inlined = new Map<string, { value: JsonValue; nodes: number }>();
  #nodes = 0;

  constructor(refs: Refs, where: string, target: (ref: string) => JsonValue, tooDeep: HubError) {
    this.#refs = refs;
    this.#where = where;
    this.#target = target;
    this.#tooDeep = tooDeep;
  }

  /** `schema` as JSON Schema with `#/$defs/…` references. */
  convert(schema: JsonValue): JsonValue {
    return this.#walk(schema, 0, []);
  }

  /** The component schemas the converted schemas refer to, converted too (or undefined when none). */
  defs(): JsonObject | undefined {
    if (this.#defs.size === 0) return undefined;
    return Object.fromEntries([...this.#defs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The schema a component reference names, converted, for a top-level use (an output schema). */
  component(schema: JsonValue): JsonValue {
    const resolved = this.#refs.resolve(schema, this.#where);
    return this.#walk(resolved, 0, []);
  }

  /** Counts `nodes` more schema nodes, refusing past MAX_SCHEMA_NODES (a "billion laughs" document). */
  #count(nodes: number): void {
    this.#nodes += nodes;
    if (this.#nodes <= MAX_SCHEMA_NODES) return;
    throw new HubError(
      'limit',
      `${this.#where} has schemas of more than ${MAX_SCHEMA_NODES} nodes once its references are expanded, ` +
        "past the hub's cap. Simplify the document (e.g. make the repeated pieces component schemas).",
    );
  }

  #walk(node: JsonValue, depth: number, inlining: string[]): JsonValue {
    if (depth > MAX_SCHEMA_DEPTH) throw this.#tooDeep;
    this.#count(1);
    if (Array.isArray(node)) return node.map((item) => this.#walk(item, depth + 1, inlining));
    if (!isObject(node)) return node;
    // Null-prototype objects: a key `__proto__` in the document is a name like any other.
    const out: JsonObject = Object.create(null) as JsonObject;
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-') || DROPPED.has(key)) continue;
      if (key === '$ref' && typeof value === 'string') continue;
      if (NAMED.has(key) && isObject(value)) {
        // Keys here are names (a property called `default` or `x-id`): every value is a schema.
        const named: JsonObject = Object.create(null) as JsonObject;
        for (const [name, schema] of Object.entries(value))
          named[name] = this.#walk(schema, depth + 2, inlining);
        out[key] = named;
        continue;
      }
      out[key] = DATA.has(key) || key === 'required' ? value : this.#walk(value, depth + 1, inlining);
    }
    const ref = node.$ref;
    if (typeof ref !== 'string') return out;
    if (ref.startsWith(SCHEMA_PREFIX) && !ref.slice(SCHEMA_PREFIX.length).includes('/')) {
      const name = ref.slice(SCHEMA_PREFIX.length);
      this.#need(name, ref);
      return { $ref: `#/$defs/${name}`, ...out };
    }
    // Any other reference is inlined where it is used; one that comes back to itself is a cycle.
    if (inlining.includes(ref)) {
      throw new HubError(
        'invalid_input',
        `${this.#where} has a $ref cycle that never reaches a component schema: ${[...inlining, ref].join(' → ')}. Fix the document.`,
      );
    }
    if (inlining.length >= MAX_REF_HOPS) throw this.#tooDeep;
    const target = this.#inline(ref, depth, inlining);
    return isObject(target) ? { ...target, ...out } : target;
  }

  /** The converted target of an inlined reference, walked at its first use only. */
  #inline(ref: string, depth: number, inlining: string[]): JsonValue {
    const known = this.#inlined.get(ref);
    if (known) {
      this.#count(known.nodes);
      return known.value;
    }
    const before = this.#nodes;
    const value = this.#walk(this.#target(ref), depth + 1, [...inlining, ref]);
    this.#inlined.set(ref, { value, nodes: this.#nodes - before });
    return value;
  }

  #need(name: string, ref: string): void {
    const key = name.replace(/~1/g, '/').replace(/~0/g, '~');
    if (this.#defs.has(key)) return;
    this.#defs.set(key, {});
    this.#defs.set(key, this.#walk(this.#target(ref), 1, []));
  }
}
