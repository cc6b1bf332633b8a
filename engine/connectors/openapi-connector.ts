/**
 * The SourceConnector for OpenAPI sources, for both hosts. Listing reads the document again
 * (a URL through guardedFetch, reaching only the document's own host; a file path only through
 * the reader a local host hands it), brings in the documents it refers to on its own origin,
 * and turns its operations into tools. A call builds the HTTP
 * request from the operation as stored and reviewed (never from a document read again) and
 * sends it through guardedFetch restricted to the source's allowed hosts: same-origin redirects
 * only, so credentials never cross origins (I4), with the response size cap.
 */
import type { Source } from '../contracts/sources.ts';
import { HubError, isHubError, withDelivery } from '../errors.ts';
import { beforeSending, deliveryOf } from './call-delivery.ts';
import type { CallRequest, Credentials, ListedTools, SourceConnector } from './connector.ts';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type FetchLike,
  guardedFetch,
  type PrivateAddresses,
} from './guarded-fetch.ts';
import { bundleReferences } from './openapi/bundle.ts';
import { firstServer, MAX_DOCUMENT_BYTES, readDocument, tooLarge } from './openapi/document.ts';
import { buildRequest, callResult } from './openapi/http-call.ts';
import { operationTools, someTools } from './openapi/operations.ts';
import { credentialAsks } from './openapi/security.ts';
import type { McpCallResult } from './tool-result.ts';

/** Reads a document from an absolute file path: the local host's part (the Worker has none). */
export type DocumentReader = (path: string) => Promise<string>;

export interface OpenApiConnectorOptions {
  fetch?: FetchLike | undefined;
  privateAddresses?: PrivateAddresses | undefined;
  readFile?: DocumentReader | undefined;
  maxResponseBytes?: number | undefined;
}

type OpenApiSource = Extract<Source, { kind: 'openapi' }>;

export class OpenApiConnector implements SourceConnector {
  readonly privateAddresses: PrivateAddresses;
  readonly #options: OpenApiConnectorOptions;

  constructor(options: OpenApiConnectorOptions = {}) {
    this.#options = options;
    this.privateAddresses = options.privateAddresses ?? 'allow';
  }

  /** The document's text, from its URL or (a local host only) its file. */
  async readText(location: string): Promise<string> {
    if (/^https?:\/\//i.test(location)) {
      const url = new URL(location);
      const fetch = guardedFetch(
        {
          allowedHosts: [url.host],
          maxResponseBytes: MAX_DOCUMENT_BYTES,
          privateAddresses: this.privateAddresses,
        },
        this.#options.fetch,
      );
      try {
        const response = await fetch(url, {
          headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
        });
        if (!response.ok) {
          await response.body?.cancel();
          throw new HubError(
            'unavailable',
            `the OpenAPI document at ${location} answered HTTP ${response.status}. Check its address.`,
          );
        }
        return await response.text();
      } catch (error) {
        if (isHubError(error, 'limit')) throw tooLarge(location);
        if (isHubError(error)) throw error;
        throw new HubError(
          'unavailable',
          `could not read the OpenAPI document at ${location}. Check its address.`,
          {
            detail: String(error),
          },
        );
      }
    }
    const read = this.#options.readFile;
    if (!read || !location.startsWith('/')) {
      throw new HubError(
        'denied',
        'this hub reads OpenAPI documents from http(s) URLs only; a file is read by a local hub. Serve the document at a URL.',
        { detail: `the document is ${location}` },
      );
    }
    return read(location);
  }

  async listTools(source: Source, _credentials: Credentials): Promise<ListedTools> {
    const location = openapi(source).document;
    const document = await bundleReferences(readDocument(await this.readText(location), location), (url) =>
      this.readText(url),
    );
    const { tools, notices } = someTools(operationTools(document), document.location);
    const info = document.root.info;
    const title = typeof info === 'object' && info !== null && !Array.isArray(info) ? info : {};
    return {
      tools,
      server:
        typeof title.title === 'string'
          ? { name: title.title, version: typeof title.version === 'string' ? title.version : '' }
          : undefined,
      serverUrl: firstServer(document),
      notices,
      credentials: credentialAsks(document),
    };
  }

  /**
   * Calls one operation. A failure is tagged with what is known of the request
   * (call-delivery.ts): refused or never connected, it was not sent; a timeout or a connection
   * lost on the way may come after the API acted on it.
   */
  async callTool(source: Source, credentials: Credentials, request: CallRequest): Promise<McpCallResult> {
    const api = openapi(source);
    if (!request.operation) {
      throw new HubError(
        'internal',
        `${request.name} of "${api.namespace}" has no stored operation; refresh the source`,
        { delivery: 'unsent' },
      );
    }
    let built: ReturnType<typeof buildRequest>;
    try {
      built = buildRequest(api.url, request.operation, request.args, credentials);
    } catch (error) {
      throw beforeSending(error);
    }
    const { url, init } = built;
    const fetch = guardedFetch(
      {
        allowedHosts: api.allowedHosts,
        maxResponseBytes: this.#options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        privateAddresses: this.privateAddresses,
      },
      this.#options.fetch,
    );
    const signals = [AbortSignal.timeout(request.timeoutMs), ...(request.signal ? [request.signal] : [])];
    try {
      return await callResult(await fetch(url, { ...init, signal: AbortSignal.any(signals) }));
    } catch (error) {
      if (isHubError(error)) throw withDelivery(error, deliveryOf(error));
      const timedOut = error instanceof Error && /timeout|abort/i.test(`${error.name} ${error.message}`);
      const delivery = timedOut ? 'unknown' : deliveryOf(error);
      const named = `the API of "${api.namespace}"`;
      throw new HubError(
        'unavailable',
        timedOut
          ? `${named} did not answer ${request.name} in time`
          : delivery === 'unsent'
            ? `could not reach ${named}; check that it is up`
            : `the connection to ${named} failed before it answered ${request.name}`,
        { detail: `${init.method} ${url.origin}${url.pathname}: ${String(error)}`, delivery },
      );
    }
  }

  onToolsChanged(_listener: (namespace: string) => void): void {
    // A document says nothing when it changes: `hub refresh` reads it again.
  }

  health(_namespace: string): undefined {
    return undefined;
  }

  async close(): Promise<void> {}
}

function openapi(source: Source): OpenApiSource {
  if (source.kind !== 'openapi')
    throw new HubError('internal', `"${source.namespace}" is not an OpenAPI source`);
  return source;
}
