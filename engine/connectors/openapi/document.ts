/**
 * An OpenAPI document as the hub reads it: text under a size cap, parsed as JSON or YAML,
 * recognised by its `openapi` (3.0, 3.1) or `swagger` (2.0) member, and upgraded to 3.1 with
 * the kept parser (@scalar/openapi-parser), so the rest of the hub reads one shape. Also where
 * the API is: the document's first https server (else its first), resolved against the document's own URL.
 */
import { normalize, upgrade } from '@scalar/openapi-parser';
import type { JsonValue } from '../../contracts/names.ts';
import { HubError } from '../../errors.ts';

/** The largest document the hub reads: 4 MiB (the largest well-known public documents are under 3). */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

export type JsonObject = { [key: string]: JsonValue };

/** An OpenAPI document upgraded to 3.1, with where it was read from. */
export interface OpenApiDocument {
  /** The document as 3.1 (paths, components, security, servers, info). */
  root: JsonObject;
  /** The version it was written in (`2.0`, `3.0.3`, `3.1.0`…). */
  version: string;
  /** The URL or absolute path it was read from. */
  location: string;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document's size error, naming the cap. */
export function tooLarge(location: string, bytes?: number): HubError {
  const size = bytes === undefined ? 'more than 4 MiB' : `${bytes} bytes`;
  return new HubError(
    'limit',
    `the OpenAPI document is ${size}, over the hub's 4 MiB (${MAX_DOCUMENT_BYTES}-byte) cap. ` +
      'Use a smaller document, e.g. one filtered to the operations you need.',
    { detail: `the document is ${location}` },
  );
}

/** The version member of a parsed value when it is an OpenAPI document; undefined otherwise. */
export function openApiVersion(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const version = value.openapi ?? value.swagger;
  return typeof version === 'string' && isObject(value.paths ?? {}) ? version : undefined;
}

/** `text` parsed as JSON or YAML, or undefined when it is neither. */
export function parseText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return normalize(text) as unknown;
    } catch {
      return undefined;
    }
  }
}

/** Reads `text` (from `location`) as an OpenAPI document, or says why it is not one. */
export function readDocument(text: string, location: string): OpenApiDocument {
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > MAX_DOCUMENT_BYTES) throw tooLarge(location, bytes);
  const parsed = parseText(text);
  const version = openApiVersion(parsed);
  if (version === undefined || !isObject(parsed)) {
    throw new HubError(
      'invalid_input',
      `${location} is not an OpenAPI document: it has no "openapi" or "swagger" member at the top. ` +
        "Give the address of the API's OpenAPI (or Swagger) document, or an MCP server's URL.",
    );
  }
  if (!/^(2\.0|3\.[01])(\.\d+)?$/.test(version)) {
    throw new HubError(
      'invalid_input',
      `${location} is OpenAPI ${version}, which the hub does not read; it reads Swagger 2.0 and OpenAPI 3.0 and 3.1.`,
    );
  }
  let root: unknown;
  try {
    root = upgrade(withSchemes(parsed, version, location)).specification;
  } catch (error) {
    throw new HubError(
      'invalid_input',
      `${location} could not be read as OpenAPI ${version}: ${String(error)}`,
    );
  }
  if (!isObject(root))
    throw new HubError('invalid_input', `${location} could not be read as OpenAPI ${version}`);
  return { root: JSON.parse(JSON.stringify(root)) as JsonObject, version, location };
}

/**
 * A Swagger 2.0 document with a `host` and no `schemes` is served, by the specification, with the
 * scheme the document was read with (https for a file): said explicitly, so the upgrade keeps it.
 */
function withSchemes(parsed: JsonObject, version: string, location: string): JsonObject {
  if (!version.startsWith('2') || typeof parsed.host !== 'string') return parsed;
  if (Array.isArray(parsed.schemes) && parsed.schemes.length > 0) return parsed;
  return { ...parsed, schemes: [/^http:\/\//i.test(location) ? 'http' : 'https'] };
}

/**
 * The document's server as an absolute http(s) URL (relative ones against the document's URL):
 * its first https server, else its first server; with none, `/` (OpenAPI's default: the root
 * of the document's own origin).
 */
export function firstServer(document: OpenApiDocument): string | undefined {
  const listed = Array.isArray(document.root.servers) ? document.root.servers : [];
  const servers: JsonValue[] = listed.length > 0 ? listed : [{ url: '/' }];
  const urls = servers.map((server) => serverUrl(server, document.location));
  return urls.find((url) => url?.startsWith('https:')) ?? urls[0];
}

function serverUrl(first: JsonValue, location: string): string | undefined {
  if (!isObject(first) || typeof first.url !== 'string') return undefined;
  let template = first.url;
  // Server variables take their defaults.
  const variables = isObject(first.variables) ? first.variables : {};
  template = template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  const base = /^https?:\/\//i.test(location) ? location : undefined;
  const url = URL.parse(template, base);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || /[{}]/.test(url.href))
    return undefined;
  return url.href;
}
