/**
 * References to other documents on the document's own origin, brought into it before its
 * operations are read: each referenced document is read (through the same guarded reader, so
 * only the document's own host), kept under `x-hub-referenced` in the document, and every
 * reference to it (and within it) rewritten to point there. References to another origin stay,
 * and refs.ts refuses them; so do references from a document read from a file. At most
 * MAX_REFERENCED documents, each under the size cap, nested at most MAX_REF_HOPS deep.
 */
import type { JsonValue } from '../../contracts/names.ts';
import { HubError } from '../../errors.ts';
import { setOwn } from '../../own-property.ts';
import {
  isObject,
  type JsonObject,
  MAX_DOCUMENT_BYTES,
  type OpenApiDocument,
  parseText,
} from './document.ts';
import { MAX_REF_HOPS } from './refs.ts';

/** How many other documents one document may refer to, in all. */
export const MAX_REFERENCED = 20;
const HOLDER = 'x-hub-referenced';

/** Reads the text at a URL of the document's own origin. */
export type ReadSameOrigin = (url: string) => Promise<string>;

/** `document` with the documents it refers to on its own origin brought in. */
export async function bundleReferences(
  document: OpenApiDocument,
  read: ReadSameOrigin,
): Promise<OpenApiDocument> {
  if (!/^https?:\/\//i.test(document.location)) return document;
  const origin = new URL(document.location).origin;
  const held: JsonObject = {};
  const keys = new Map<string, string>();
  let bytes = 0;

  /** The pointer prefix of the document at `url`, reading it the first time. */
  const bring = async (url: string, depth: number): Promise<string> => {
    const known = keys.get(url);
    if (known !== undefined) return known;
    if (depth > MAX_REF_HOPS || keys.size >= MAX_REFERENCED) {
      throw new HubError(
        'limit',
        `the OpenAPI document refers to more than ${MAX_REFERENCED} other documents, or nests them more than ${MAX_REF_HOPS} deep; bundle it into one file and add that.`,
        { detail: `the document is ${document.location}` },
      );
    }
    const key = String(keys.size);
    keys.set(url, key);
    const text = await read(url);
    bytes += text.length;
    if (bytes > MAX_DOCUMENT_BYTES) {
      throw new HubError(
        'limit',
        `the OpenAPI document and the documents it refers to are over the hub's 4 MiB cap together.`,
        {
          detail: `the document is ${document.location}`,
        },
      );
    }
    const parsed = parseText(text);
    if (parsed === undefined) {
      throw new HubError(
        'invalid_input',
        `the OpenAPI document refers to ${url}, which is neither JSON nor YAML.`,
      );
    }
    held[key] = await rewrite(parsed as JsonValue, url, `#/${HOLDER}/${key}`, depth + 1);
    return `#/${HOLDER}/${key}`;
  };

  /** `node` with its references made local: `here` is its document's URL, `prefix` where it is kept. */
  const rewrite = async (
    node: JsonValue,
    here: string,
    prefix: string,
    depth: number,
  ): Promise<JsonValue> => {
    if (Array.isArray(node)) {
      const out: JsonValue[] = [];
      for (const item of node) out.push(await rewrite(item, here, prefix, depth));
      return out;
    }
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      // A document's own keys, `__proto__` among them, stay its own (own-property.ts).
      if (key === '$ref' && typeof value === 'string')
        setOwn(out, key, await local(value, here, prefix, depth));
      else setOwn(out, key, await rewrite(value, here, prefix, depth));
    }
    return out;
  };

  const local = async (ref: string, here: string, prefix: string, depth: number): Promise<string> => {
    if (ref.startsWith('#')) return prefix === '#' ? ref : `${prefix}${ref.slice(1)}`;
    const url = URL.parse(ref, here);
    if (!url || url.origin !== origin) return ref;
    const fragment = url.hash.slice(1);
    url.hash = '';
    const target = url.href === document.location.split('#')[0] ? '#' : await bring(url.href, depth);
    return `${target}${fragment}`;
  };

  const root = (await rewrite(document.root, document.location, '#', 0)) as JsonObject;
  if (keys.size === 0) return document;
  return { ...document, root: { ...root, [HOLDER]: held } };
}
