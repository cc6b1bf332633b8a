/**
 * Adding a source from the dashboard inside workerd, over a HubObject's own store: the form in
 * the hosted wording (a stdio server cannot be added, and why), a URL that is not http(s) shown
 * again with its message, and the whole add against a real MCP server over Streamable HTTP that
 * requires a bearer token. workerd cannot reach a server in the Node test process, so the server
 * runs in this isolate (the SDK's own handler) and the connector's `fetch` is routed to it; the
 * rest is the hosted code: the dashboard sub-app, `SourceDrafts`, `Sources`, the McpConnector and
 * the Durable Object's SQLite. The HubObject keeps no secret store yet, so the engine here is
 * built over its store with one held in memory (test/engine/dashboard-add-source.test.ts holds the
 * details under Node).
 */

import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { SessionMiddleware } from '../../dashboard/session.ts';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import type { HubEnv, HubObject } from '../../durable-objects/hub-object.ts';
import { createEngine } from '../../engine/engine.ts';
import { McpConnector } from '../../engine/sources/mcp-connector.ts';
import { cryptoRandom, systemClock } from '../../engine/system.ts';

const hubs = (env as unknown as HubEnv).HUB;
const TOKEN = 'board-token-in-workerd-5c1e9a';
const URL_OF_BOARD = 'https://board.example/mcp';

/** The board's MCP server, in this isolate: it answers only with `Authorization: Bearer TOKEN`. */
const board = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'board-mcp-server', version: '1.0.0' });
    server.registerTool(
      'list_posts',
      { description: 'List the posts.', annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text' as const, text: '[]' }] }),
    );
    server.registerTool('post', { description: 'Post a message.' }, async () => ({
      content: [{ type: 'text' as const, text: 'posted' }],
    }));
    return server;
  },
  { legacy: 'stateless' },
);

const boardFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
  const request = new Request(url, init);
  if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) return new Response('no', { status: 401 });
  return board.fetch(request);
};

describe('adding a source from the dashboard in workerd', () => {
  it('shows the form in the hosted wording, refuses a URL that is not http(s), and adds a server with its credential', async () => {
    await runInDurableObject(hubs.get(hubs.newUniqueId()), async (hub: HubObject) => {
      const held = new Map<string, string>();
      const engine = createEngine({
        store: hub.store,
        connector: new McpConnector({ version: 'test', wording: hostedWording, fetch: boardFetch }),
        secrets: {
          where: 'this test',
          get: async (key) => held.get(key),
          set: async (key, value) => void held.set(key, value),
          delete: async (key) => void held.delete(key),
        },
        clock: systemClock,
        random: cryptoRandom,
        wording: hostedWording,
        sandbox: () => {
          throw new Error('this test runs no code');
        },
      });
      const session: SessionMiddleware = async (c, next) => {
        c.set('session', { who: 'ana', csrf: 'token', scope: { kind: 'dashboard' } });
        await next();
      };
      const app = createDashboard({
        desk: engine.desk,
        clock: systemClock,
        session,
        review: engine.sources,
        adding: engine.drafts,
        wording: engine.wording,
      });
      const post = (path: string, form: Record<string, string>) =>
        app.request(path, { method: 'POST', body: new URLSearchParams(form) });

      const form = await (await app.request('/sources/new')).text();
      expect(form).toContain('type="password" autocomplete="off"');
      expect(form).toContain('A hub in the cloud cannot start a command on your machine');

      const invalid = await post('/sources/new', {
        csrf: 'token',
        url: 'ftp://board.example/mcp',
        credential: TOKEN,
      });
      expect(invalid.status).toBe(400);
      const invalidHtml = await invalid.text();
      expect(invalidHtml).toContain('is not a Streamable HTTP server');
      expect(invalidHtml).toContain('value="ftp://board.example/mcp"');
      expect(invalidHtml).not.toContain(TOKEN);

      const review = await post('/sources/new', {
        csrf: 'token',
        url: URL_OF_BOARD,
        credential: TOKEN,
        header: 'Authorization',
        scheme: 'Bearer',
      });
      const html = await review.text();
      expect(review.status, /role="alert">[^<]*/.exec(html)?.[0]).toBe(200);
      expect(html).not.toContain(TOKEN);
      const id = /\/sources\/new\/(draft_[a-f0-9]+)\/confirm/.exec(html)?.[1] ?? '';
      const contracts = [...html.matchAll(/name="(contract:[^"]+)" value="([^"]+)"/g)].map((m) => [
        m[1] as string,
        m[2] as string,
      ]);
      expect(contracts.map(([name]) => name).sort()).toEqual([
        'contract:board.list_posts',
        'contract:board.post',
      ]);
      const confirmed = await post(`/sources/new/${id}/confirm`, {
        csrf: 'token',
        namespace: 'board',
        choice: 'accept',
        ...Object.fromEntries(contracts),
      });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe('/sources/board');
      expect(hub.store.getManifest('board')?.tools.map((t) => t.address)).toEqual([
        'board.list_posts',
        'board.post',
      ]);
      const connection = hub.store.getConnection('board', 'default');
      expect(held.get(connection?.secrets[0]?.key ?? '')).toBe(TOKEN);
      expect([...held.keys()].filter((key) => key.startsWith('DRAFT__'))).toEqual([]);
      expect(await (await app.request('/sources/board')).text()).not.toContain(TOKEN);
    });
  });
});
