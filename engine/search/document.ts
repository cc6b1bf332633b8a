/**
 * What the index holds for one searchable thing, and the text of each of its fields.
 *
 * A document is a tool or a skill (`kind`). A tool's keeps what the answer shows and the policy
 * reads (name, contract, annotations, the first sentence of the description, and the signature
 * when it was made with one), not the whole tool, so documents can be kept in the store and an
 * index built from them without reading a single tool list (stored-documents.ts). Its fields
 * are what BM25F ranks over: the tool's name (and title); the first sentence of its description
 * (what it does) and the whole description; its parameters' names; their descriptions and
 * allowed values; and the namespace with the server's name. Never connection names (spec: The
 * MCP surface, search): those are the person's own labels, not what a tool does.
 *
 * Invariants:
 * - a document's field terms depend on the tool and its namespace alone, so building a
 *   namespace's documents twice gives the same terms;
 * - the input schema walk is bounded (depth and property count), so a pathological schema
 *   cannot make one document dominate the build.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { Manifest, ManifestTool } from '../contracts/sources.ts';
import { firstSentence } from './first-sentence.ts';
import { terms } from './tokenize.ts';

/** A tool as the index holds it. */
export interface ToolDocument {
  kind: 'tool';
  /** `namespace.tool`, unique in the index. */
  address: string;
  namespace: string;
  name: string;
  contract: string;
  annotations?: ManifestTool['annotations'];
  /** The first sentence of its description: what it does. */
  summary: string;
  /** Its one-line TypeScript signature, when the document was made with it. */
  signature?: string | undefined;
}

/** A skill as the index holds it: found by its name and description, read with `describe`. */
export interface SkillDocument {
  kind: 'skill';
  /** `skill:<name>`, what `describe` takes. */
  address: string;
  /** Skills belong to no source: '' (so a search within a namespace never returns one). */
  namespace: '';
  name: string;
  /** The first sentence of its description. */
  summary: string;
}

/** Anything the index can return: a tool or a skill. */
export type IndexedDocument = ToolDocument | SkillDocument;

/** A document and its terms, field by field: what the index is built from. */
export interface SearchDocument {
  doc: IndexedDocument;
  terms: FieldTerms;
}

/**
 * The documents of a manifest's tools, in manifest order, with their terms; each with its
 * signature when `signatureOf` is given.
 */
export function toolDocuments(
  manifest: Manifest,
  signatureOf?: (tool: ManifestTool) => string,
): SearchDocument[] {
  const { namespace } = manifest;
  const server = manifest.server?.name;
  return manifest.tools.map((tool) => ({
    doc: {
      kind: 'tool',
      address: tool.address,
      namespace,
      name: tool.name,
      contract: tool.contract,
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      summary: firstSentence(tool.description),
      ...(signatureOf === undefined ? {} : { signature: signatureOf(tool) }),
    },
    terms: documentTerms(tool, namespace, server),
  }));
}

/**
 * A skill's document: its name as the name field, its description's first sentence and whole
 * text as the summary and description fields; no parameters and no namespace. (Its instructions
 * are what `describe` reads, not what finds it.)
 */
export function skillDocument(skill: { name: string; description: string }): SearchDocument {
  return {
    doc: {
      kind: 'skill',
      address: `skill:${skill.name}`,
      namespace: '',
      name: skill.name,
      summary: firstSentence(skill.description),
    },
    terms: [
      terms(skill.name),
      terms(firstSentence(skill.description, Number.POSITIVE_INFINITY)),
      terms(skill.description),
      [],
      [],
      [],
    ],
  };
}

/** The fields BM25F ranks over, in the order their terms are stored. */
export const FIELDS = ['name', 'summary', 'description', 'params', 'paramText', 'namespace'] as const;
export type Field = (typeof FIELDS)[number];

/** One document's terms, per field (indexed like FIELDS). */
export type FieldTerms = readonly (readonly string[])[];

/** How far the input schema walk goes; deeper parameters describe data, not the tool. */
const MAX_DEPTH = 4;
const MAX_PROPERTIES = 200;

/** The terms of each field of a tool's document; `server` is its MCP server's own name, when known. */
export function documentTerms(tool: ManifestTool, namespace: string, server?: string): FieldTerms {
  const names = terms(tool.name);
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) names.push(...terms(title).filter((term) => !names.includes(term)));
  const parameters = parameterText(tool.inputSchema);
  const params: string[] = [];
  for (const name of parameters.names) terms(name, params);
  const paramText: string[] = [];
  for (const text of parameters.texts) terms(text, paramText);
  const summary = terms(firstSentence(tool.description, Number.POSITIVE_INFINITY));
  const source = terms(namespace);
  if (server !== undefined) source.push(...terms(server).filter((term) => !source.includes(term)));
  return [names, summary, terms(tool.description ?? ''), params, paramText, source];
}

/** What an input schema says about its parameters, as text. */
export interface ParameterText {
  /** Every parameter's name, nested ones included. */
  names: string[];
  /** Descriptions and titles, and the string values of enums and consts. */
  texts: string[];
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The parameter names and descriptive text of an input schema, through properties, array items,
 * combinators, additional properties and local definitions, within MAX_DEPTH and MAX_PROPERTIES.
 */
export function parameterText(schema: JsonObject): ParameterText {
  const found: ParameterText = { names: [], texts: [] };
  walk(schema, 0, { count: 0 }, found);
  return found;
}

function walk(
  schema: JsonValue | undefined,
  depth: number,
  budget: { count: number },
  found: ParameterText,
): void {
  if (!isObject(schema) || depth > MAX_DEPTH) return;
  for (const key of ['description', 'title'] as const) {
    const text = schema[key];
    if (typeof text === 'string') found.texts.push(text);
  }
  const values = Array.isArray(schema.enum) ? schema.enum : [schema.const];
  for (const value of values) if (typeof value === 'string') found.texts.push(value);
  const properties = schema.properties;
  if (isObject(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      if (++budget.count > MAX_PROPERTIES) return;
      found.names.push(name);
      walk(child, depth + 1, budget, found);
    }
  }
  for (const key of ['items', 'additionalProperties'] as const) walk(schema[key], depth + 1, budget, found);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) for (const option of options) walk(option, depth, budget, found);
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (isObject(defs)) for (const def of Object.values(defs)) walk(def, depth + 1, budget, found);
  }
}
