/**
 * Search documents as the store keeps them (hub_search_documents, issue #38): a namespace's
 * documents and terms, with each tool's signature, made from one manifest, so a process that
 * starts builds its index from them instead of reading, tokenizing and typing every tool (the
 * first search of a new `serve --stdio` session, on a hub of 24 servers, took about half a second).
 *
 * What is stored depends on the code that made it, so every row carries a format: a version
 * bumped by hand for changes no probe can see, and a fingerprint of what this code makes of a
 * probe tool (its terms and its signature). Tokenizing, stemming, the schema walk or typegen
 * changing what they make changes the fingerprint, and rows of another format are made again.
 * A row is checked on the way out: anything that is not documents of its namespace is ignored.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { Manifest, ManifestTool } from '../contracts/sources.ts';
import type { StoredSearchDocuments } from '../ports.ts';
import { FIELDS, type SearchDocument, toolDocuments } from './document.ts';

/** Bump when what is stored changes in a way the probe below cannot show. */
const VERSION = 1;

/** A tool that exercises the tokenizer, the stemmer, the schema walk and typegen. */
const PROBE: Manifest = {
  namespace: 'probe',
  fetchedAt: 0,
  server: { name: 'probe-mcp-server', version: '1.0.0' },
  tools: [
    {
      address: 'probe.createIssues',
      name: 'createIssues',
      title: 'Create GitHub issues',
      description:
        "Creates issues in a repository's tracker, quickly. Labels (bug, feature) and assignees are optional; returns the issues' URLs.",
      inputSchema: {
        type: 'object',
        properties: {
          owner: { type: 'string', description: 'The account owning the repository' },
          state: { type: 'string', enum: ['open', 'closed'] },
          items: {
            type: 'array',
            items: { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } } },
          },
        },
        required: ['owner'],
      },
      outputSchema: { type: 'object', properties: { urls: { type: 'array', items: { type: 'string' } } } },
      annotations: { readOnlyHint: false },
      contract: '0'.repeat(64),
    },
  ],
};

/** The format this code stores under, with its signature maker (computed once per maker). */
const formats = new WeakMap<object, string>();

export function storedFormat(signatureOf: (tool: ManifestTool, manifest: Manifest) => string): string {
  let format = formats.get(signatureOf);
  if (format === undefined) {
    const made = toolDocuments(PROBE, (tool) => signatureOf(tool, PROBE));
    format = `${VERSION}:${fnv1a(JSON.stringify(made))}`;
    formats.set(signatureOf, format);
  }
  return format;
}

/** A manifest's documents with their signatures, as a row to store. */
export function documentsToStore(
  manifest: Manifest,
  format: string,
  signatureOf: (tool: ManifestTool, manifest: Manifest) => string,
): { row: StoredSearchDocuments; documents: SearchDocument[] } {
  const documents = toolDocuments(manifest, (tool) => signatureOf(tool, manifest));
  return {
    row: { namespace: manifest.namespace, fetchedAt: manifest.fetchedAt, format, documents },
    documents,
  };
}

/**
 * The documents of a stored row when it was made from the manifest fetched at `fetchedAt` by
 * this code (`format`) and reads as documents of its namespace; undefined otherwise.
 */
export function storedDocuments(
  row: StoredSearchDocuments | undefined,
  fetchedAt: number,
  format: string,
): SearchDocument[] | undefined {
  if (row === undefined || row.fetchedAt !== fetchedAt || row.format !== format) return undefined;
  const documents: SearchDocument[] = [];
  for (const item of row.documents) {
    if (!isDocument(item, row.namespace)) return undefined;
    documents.push(item);
  }
  return documents;
}

type Loose = { [key: string]: unknown };
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isDocument(item: unknown, namespace: string): item is SearchDocument {
  if (!isObject(item) || !isObject(item.doc) || !Array.isArray(item.terms)) return false;
  const { doc, terms } = item;
  return (
    doc.kind === 'tool' &&
    doc.namespace === namespace &&
    typeof doc.address === 'string' &&
    doc.address.startsWith(`${namespace}.`) &&
    typeof doc.name === 'string' &&
    typeof doc.contract === 'string' &&
    typeof doc.summary === 'string' &&
    (doc.signature === undefined || typeof doc.signature === 'string') &&
    (doc.annotations === undefined || isObject(doc.annotations as JsonValue)) &&
    terms.length === FIELDS.length &&
    terms.every(isStrings)
  );
}

/** FNV-1a, 32 bits, as hex: a fingerprint, not a defence. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
