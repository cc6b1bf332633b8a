/**
 * The surface at /mcp on `hub serve --http`, end to end: a real process on loopback, the
 * official v2 client in both eras with the bearer token, the v1 SDK client (a 2025-era client),
 * 401 without the token, and raw requests a client gets wrong (malformed JSON, not JSON-RPC, an
 * unknown method, GET on a stateless endpoint), each answered by the protocol and followed by
 * a request that still works.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { MAX_REQUEST_BYTES } from '../../engine/surface/index.ts';
import { hubHome, runCli, startServe } from './cli-process.ts';
import { addSources, httpClient, textOf } from './surface-fixture.ts';

let home: string;
let remove: () => void;
let board: ReturnType<typeof addSources>;
let server: Awaited<ReturnType<typeof startServe>>;
let token: string;
beforeAll(async () => {
  ({ home, remove } = hubHome());
  board = addSources(home);
  server = await startServe(home);
  token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
}, 60_000);
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  remove();
});

const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;

async function withClient<T>(era: 'legacy' | 'auto', body: (client: Client) => Promise<T>): Promise<T> {
  const client = await httpClient(server.url, token, era);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** POSTs `body` to /mcp as a Streamable HTTP client would, with the token. */
async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  // A JSON body, or one SSE `data:` line carrying the JSON-RPC message.
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
  return { status: response.status, message: JSON.parse(json) as Record<string, unknown> };
}

describe('/mcp on hub serve --http', () => {
  it('runs the whole loop for a 2026-07-28 client with the token: the write asks, a person approves, resume completes once', async () => {
    await withClient('auto', async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);
      expect(client.getInstructions()).toContain('search finds them');
      const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'read the graph' } }));
      expect(found).toContain('memory.read_graph');
      const described = textOf(
        await client.callTool({ name: 'describe', arguments: { targets: ['board'] } }),
      );
      expect(described).toContain('declare const board');

      const asked = envelopeOf(
        await client.callTool({
          name: 'execute',
          arguments: {
            code: 'const g = await memory.read_graph({}); return await board.post({ text: "over http " + g.entities.length });',
          },
        }),
      );
      expect(asked).toMatchObject({ status: 'awaiting_approval', pending: [{ address: 'board.post' }] });
      // Asynchronously: a blocked event loop would keep the client on a keep-alive socket the
      // server closed meanwhile (undici then fails the next request with "other side closed").
      const approved = await runCli(home, ['--json', 'hub', 'approve', asked.runId, '--choice', 'once']);
      expect(approved.status, approved.stderr).toBe(0);
      const done = await client.callTool({ name: 'execute', arguments: { resume: asked.runId } });
      expect(envelopeOf(done)).toMatchObject({ status: 'completed', result: { id: 1, text: 'over http 0' } });
      expect(board.posts()).toEqual(['post over http 0']);
    });
  }, 60_000);

  it('serves a 2025 client of the v2 SDK and the v1 SDK client alike', async () => {
    const legacy = await withClient('legacy', async (client) =>
      client.callTool({
        name: 'execute',
        arguments: { code: 'return (await memory.read_graph({})).entities' },
      }),
    );
    expect(envelopeOf(legacy)).toMatchObject({ status: 'completed', result: [] });

    const v1 = new ClientV1({ name: 'v1-client', version: '1.0.0' });
    await v1.connect(
      new HttpTransportV1(new URL('/mcp', server.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect(v1.getServerVersion()?.name).toBe('capabilities');
      const { tools } = await v1.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);
      const result = await v1.callTool({ name: 'execute', arguments: { code: 'return 6 * 7' } });
      expect(result.structuredContent).toMatchObject({ status: 'completed', result: 42 });
      expect(result.content).toEqual([
        { type: 'text', text: expect.stringMatching(/^run_\w+ completed: 42$/) },
      ]);
    } finally {
      await v1.close();
    }
  }, 30_000);

  it('answers 401 without the token: a bearer challenge saying where the token is, which a client reports', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="capabilities", error="invalid_token", error_description="no bearer token; this hub takes a bearer token: send `Authorization: Bearer <the token in .*http-token>`"$/,
    );
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /the token in .*http-token/,
    );
    // The official client, given a wrong token, says what the hub said: no OAuth, no "not implemented".
    const refused = await httpClient(server.url, 'not-the-token', 'legacy').then(
      () => 'connected',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/the bearer token is wrong; this hub takes a bearer token/);
  });

  it('answers what a client gets wrong by the protocol, and keeps serving', async () => {
    expect(await post('{not json')).toEqual({
      status: 400,
      message: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringContaining('Parse error') },
      },
    });
    expect(await post(JSON.stringify({ id: 1, method: 5 }))).toMatchObject({
      status: 400,
      message: { error: { code: -32600 } },
    });
    expect(
      await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'nope/nope', params: {} })),
    ).toMatchObject({
      status: 200,
      message: { id: 7, error: { code: -32601, message: 'Method not found' } },
    });
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'execute', arguments: { code: `return "${'x'.repeat(MAX_REQUEST_BYTES)}"` } },
    });
    // Just past the limit, so the upload ends well within the server's drain window even on a
    // loaded machine (it drains an unread body for 500 ms, then closes the connection).
    expect((await post(huge)).status).toBe(413);
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(405);
    await get.body?.cancel();

    await withClient('auto', async (client) => {
      const both = await client.callTool({
        name: 'execute',
        arguments: { code: 'return 1', resume: 'run_1' },
      });
      expect(both.isError).toBe(true);
      expect(textOf(both)).toContain('got both');
      const neither = await client.callTool({ name: 'execute', arguments: {} });
      expect(textOf(neither)).toContain('got neither');
      const unknown = await client.callTool({ name: 'execute', arguments: { resume: 'run_ffff' } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('not_found: no run run_ffff');
      await expect(client.callTool({ name: 'approve', arguments: {} })).rejects.toThrow(/approve/);
      const still = await client.callTool({ name: 'search', arguments: { query: '', namespace: 'board' } });
      expect(textOf(still)).toContain('board.post');
    });
    expect(server.child.exitCode).toBeNull();
  }, 30_000);
});
