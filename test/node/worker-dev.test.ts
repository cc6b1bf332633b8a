/**
 * The hosted hub end to end: `wrangler dev` serving the Worker on loopback (workerd, the
 * HubObject, Worker Loader), and the official v2 client over HTTP with the bearer token. Code
 * sent to `execute` runs in a Worker Loader isolate: it completes, reaches the hub's lookups
 * through the bridge, and has no network. A wrong token gets 401 naming the resource metadata,
 * and nothing else.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { type RunningWorker, startWranglerDev } from './wrangler-dev.ts';

const TOKEN = 'wrangler-dev-test-token-0123456789abcdef';

let worker: RunningWorker;
let url: string;

beforeAll(async () => {
  worker = await startWranglerDev({ HUB_TOKEN: TOKEN });
  url = worker.url;
}, 150_000);

afterAll(async () => {
  await worker?.stop();
});

async function withClient<T>(body: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'wrangler-dev-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;

describe('the Worker under wrangler dev', () => {
  it('runs execute in a Worker Loader isolate that has no network', async () => {
    await withClient(async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);
      const run = envelopeOf(
        await client.callTool({
          name: 'execute',
          arguments: {
            code: `
              const found = await hub.search("send a message");
              const reach = {};
              for (const name of ["fetch", "connect", "XMLHttpRequest", "WebSocket", "EventSource", "navigator"]) {
                reach[name] = typeof globalThis[name];
              }
              return { found: typeof found, reach, sum: [1, 2, 3].reduce((a, b) => a + b) };
            `,
          },
        }),
      );
      expect(run.status, JSON.stringify(run)).toBe('completed');
      expect(run.result).toEqual({
        found: 'string',
        reach: {
          fetch: 'undefined',
          connect: 'undefined',
          XMLHttpRequest: 'undefined',
          WebSocket: 'undefined',
          EventSource: 'undefined',
          navigator: 'undefined',
        },
        sum: 6,
      });
    });
  });

  it('answers a wrong token with 401 naming where to get one (RFC 6750), nothing more, and keeps serving', async () => {
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="OAuth", resource_metadata="${url}/.well-known/oauth-protected-resource/mcp", error="invalid_token", scope="hub"`,
    );
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Invalid access token',
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
