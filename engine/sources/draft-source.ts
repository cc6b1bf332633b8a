/**
 * A source record from what `add` was given (a SourceDraft): a stdio command with its consent,
 * an MCP server's URL, or an OpenAPI document with the server its calls go to. A URL must be
 * http(s), and where the connector refuses private places (the hosted hub) it must not name one.
 */

import { type PrivateAddresses, privateAddressRefusal } from '../connectors/guarded-fetch.ts';
import type { Source } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';

/** A source before it is stored: what `add` was given, with consent already asked for. */
export type SourceDraft =
  | {
      kind: 'mcp-stdio';
      command: string[];
      env?: Record<string, string>;
      /** Where the command runs (where the person added it); absent: the starting process's own. */
      cwd?: string;
      consented: boolean;
    }
  | { kind: 'mcp-http'; url: string; allowedHosts?: string[] }
  | {
      kind: 'openapi';
      /** The document's http(s) URL or absolute file path. */
      document: string;
      /** The API's base URL; absent: the document's first server. */
      server?: string | undefined;
    };

/** The URL a draft names, for proposing a namespace: the server's, or the document's. */
export function draftUrl(draft: Exclude<SourceDraft, { kind: 'mcp-stdio' }>): string | undefined {
  if (draft.kind === 'mcp-http') return draft.url;
  return draft.server ?? (/^https?:\/\//i.test(draft.document) ? draft.document : undefined);
}

function httpUrl(text: string, what: string): URL {
  const url = URL.parse(text);
  if (!url)
    throw new HubError('invalid_input', `"${text}" is not a URL; give the ${what}'s full https:// address`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new HubError('invalid_input', `"${text}" is not an http(s) URL`);
  }
  return url;
}

/** Refuses a URL or allowed host that names a private place, where the connector refuses those. */
function publicOnly(url: URL, allowedHosts: readonly string[], refuses: PrivateAddresses | undefined): void {
  const places = [url, ...allowedHosts.flatMap((host) => URL.parse(`${url.protocol}//${host}`) ?? [])];
  for (const place of places) {
    const refused = privateAddressRefusal(place, refuses, 'cannot add a source at');
    if (refused) throw refused;
  }
}

/**
 * Refuses an OpenAPI server URL the hub would call wrongly or unsafely: one with a user name or
 * password, a query or a fragment, and (unless `explicit`, given by the person) an http server
 * named by a document read over https.
 */
function serverRefusal(url: URL, document: string, explicit: boolean, apiServer: string): void {
  const where = explicit ? `the API's base URL ${url.origin}` : `the OpenAPI document's server ${url.origin}`;
  if (url.username || url.password) {
    throw new HubError(
      'invalid_input',
      `${where} carries a user name or password; the hub does not send credentials in URLs. ` +
        `Give the server without them ${apiServer} and add the key as a credential.`,
    );
  }
  if (url.search || url.hash) {
    throw new HubError(
      'invalid_input',
      `${where} has a query or a fragment (${url.search}${url.hash}), which the hub cannot keep on every call. ` +
        `Give the server without them ${apiServer}.`,
    );
  }
  if (!explicit && url.protocol === 'http:' && /^https:\/\//i.test(document)) {
    throw new HubError(
      'invalid_input',
      `the OpenAPI document, read over https, names only an http server (${url.href}); the hub will not send ` +
        `calls unencrypted unless told to. Give the URL to use ${apiServer} (https if the API has it).`,
    );
  }
}

/**
 * The source `draft` makes under `namespace`. An OpenAPI draft's server is the one it names, else
 * `serverUrl` (the document's first server, once the document was read); while neither is known
 * (before the document is read) the document's own URL stands in.
 */
export function sourceFromDraft(
  draft: SourceDraft,
  namespace: string,
  now: number,
  refuses: PrivateAddresses | undefined,
  apiServer: string,
  serverUrl?: string,
): Source {
  if (draft.kind === 'mcp-stdio') {
    return {
      kind: 'mcp-stdio',
      namespace,
      command: draft.command,
      env: draft.env ?? {},
      ...(draft.cwd === undefined ? {} : { cwd: draft.cwd }),
      consent: draft.consented ? { command: [...draft.command], at: now } : null,
      addedAt: now,
      updatedAt: now,
    };
  }
  if (draft.kind === 'openapi') {
    const document = /^https?:\/\//i.test(draft.document)
      ? httpUrl(draft.document, 'document').href
      : draft.document;
    if (document === draft.document && !/^https?:\/\//i.test(document) && !document.startsWith('/')) {
      throw new HubError(
        'invalid_input',
        `"${draft.document}" is neither an http(s) URL nor an absolute file path`,
      );
    }
    const named = draft.server ?? serverUrl;
    if (named === undefined) {
      throw new HubError(
        'invalid_input',
        `the OpenAPI document names no server with an absolute http(s) URL; say where the API is ${apiServer}`,
      );
    }
    const url = httpUrl(named, 'server');
    serverRefusal(url, document, draft.server !== undefined, apiServer);
    publicOnly(url, [], refuses);
    if (/^https?:/i.test(document)) publicOnly(new URL(document), [], refuses);
    return {
      kind: 'openapi',
      namespace,
      document,
      url: url.href,
      allowedHosts: [url.host],
      addedAt: now,
      updatedAt: now,
    };
  }
  const url = httpUrl(draft.url, 'server');
  publicOnly(url, draft.allowedHosts ?? [], refuses);
  return {
    kind: 'mcp-http',
    namespace,
    url: url.href,
    allowedHosts: draft.allowedHosts ?? [url.host],
    addedAt: now,
    updatedAt: now,
  };
}
