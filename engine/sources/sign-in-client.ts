/**
 * The hub as an OAuth client of a source's authorization server, when it signs in from its pages
 * (source-sign-in.ts): what it registers as (RFC 7591), its client ID metadata document (SEP-991)
 * and where such a hub serves it and its callback, and the question that makes a source name its
 * resource metadata (its 401, RFC 9728 §5.1). No I/O but the one request `challengeOf` sends.
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '../connectors/guarded-fetch.ts';

/** Where a hub that signs in from its pages keeps its callback and its client ID metadata document. */
export const SIGN_IN_PATHS = {
  callback: '/sources/oauth/callback',
  clientDocument: '/sources/oauth/client.json',
} as const;

/**
 * The hub's client ID metadata document (SEP-991) at `origin`: its URL is the client id, for an
 * authorization server that reads such documents instead of registering clients.
 */
export function clientDocumentOf(clientName: string, origin: string) {
  return {
    client_id: `${origin}${SIGN_IN_PATHS.clientDocument}`,
    client_uri: origin,
    ...clientMetadataOf(clientName, `${origin}${SIGN_IN_PATHS.callback}`),
  };
}

/** The hub as an OAuth client (RFC 7591): public, code and refresh grants, one redirect URI. */
export function clientMetadataOf(clientName: string, redirectUrl: string) {
  return {
    client_name: clientName,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/**
 * The `resource_metadata` the source's 401 names (RFC 9728 §5.1), asked with an MCP initialize
 * sent without a credential; undefined when it names none or cannot be asked.
 */
export async function challengeOf(
  url: URL,
  clientName: string,
  fetchFn: FetchLike,
): Promise<URL | undefined> {
  try {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: clientName, version: '0' },
        },
      }),
    });
    await response.body?.cancel();
    return response.status === 401 ? extractWWWAuthenticateParams(response).resourceMetadataUrl : undefined;
  } catch {
    return undefined;
  }
}
