/**
 * The Worker as a client reaches it in workerd tests: its default export's fetch, and a
 * Streamable HTTP transport to its /mcp carrying the bearer token.
 */
import { exports } from 'cloudflare:workers';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { WORKERS_TEST_TOKEN } from './token.ts';

/** The Worker's fetch entry. */
export const worker = (exports as unknown as { default: Fetcher }).default;

/** A transport to the Worker's /mcp over its fetch, with a token (default: the self-hosting HUB_TOKEN). */
export function workerTransport(token: string = WORKERS_TEST_TOKEN): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL('https://hub.example/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (input, init) => worker.fetch(new Request(input, init)),
  });
}
