/**
 * Adding a source from the dashboard inside workerd, over a HubObject's own store: the form in
 * the hosted wording (a stdio server cannot be added, and why), a URL that is not http(s) shown
 * again with its message, and the whole add against a real MCP server over Streamable HTTP that
 * requires a bearer token. workerd cannot reach a server in the Node test process, so the server
 * runs in this isolate (the SDK's own handler) and the connector's `fetch` is routed to it; the
 * rest is the hosted code: the dashboard sub-app, `SourceDrafts`, `Sources`, the McpConnector and
 * the Durable Object's SQLite. The HubObject keeps no secret store yet, so the engine here is
 * built over its store with one held in memory (test/engine/dashboard-add-source.test.ts holds the
 * details under Node). An OpenAPI document likewise: the Petstore document and its API answered in
 * this isolate through the OpenApiConnector's `fetch`, private addresses refused as the hosted hub
 * does, the key typed on the review kept as the default connection, and the OAuth sign-in said in
 * the hosted words (no command).
 */

import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import petstore from '@readme/oas-examples/3.0/json/petstore.json';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { SessionMiddleware } from '../../dashboard/session.ts';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { KindConnector } from '../../engine/connectors/kind-connector.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import { OpenApiConnector } from '../../engine/connectors/openapi-connector.ts';
import { createEngine } from '../../engine/engine.ts';
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

  it('adds an OpenAPI document by URL with the key typed on the review, and says a sign-in in the hosted words', async () => {
    const KEY = 'pet-key-in-workerd-7d2b19';
    const hits: Array<{ url: string; apiKey: string | null }> = [];
    /** The Petstore document (its OAuth flow an authorization code one, its server the API's) and its API. */
    const api = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(url, init);
      hits.push({ url: request.url, apiKey: request.headers.get('api_key') });
      if (request.url === 'https://petstore.example/openapi.json')
        return Response.json({
          ...petstore,
          servers: [{ url: 'https://api.petstore.example/v2' }],
          components: {
            ...petstore.components,
            securitySchemes: {
              ...petstore.components.securitySchemes,
              petstore_auth: {
                type: 'oauth2',
                flows: {
                  authorizationCode: {
                    authorizationUrl: 'https://petstore.example/oauth/authorize',
                    tokenUrl: 'https://petstore.example/oauth/token',
                    scopes: { 'read:pets': 'read your pets' },
                  },
                },
              },
            },
          },
        });
      if (request.headers.get('api_key') !== KEY)
        return Response.json({ message: 'no key' }, { status: 401 });
      if (request.url === 'https://api.petstore.example/v2/pet/7')
        return Response.json({ id: 7, name: 'Rex' });
      return Response.json({ message: 'no such operation' }, { status: 404 });
    };
    await runInDurableObject(hubs.get(hubs.newUniqueId()), async (hub: HubObject) => {
      const held = new Map<string, string>();
      const engine = createEngine({
        store: hub.store,
        connector: new KindConnector(
          new McpConnector({ version: 'test', wording: hostedWording, privateAddresses: 'refuse' }),
          new OpenApiConnector({ fetch: api, privateAddresses: 'refuse' }),
        ),
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

      const local = await post('/sources/new', {
        csrf: 'token',
        kind: 'openapi',
        url: 'http://127.0.0.1:8787/openapi.json',
      });
      expect(local.status).toBe(400);
      expect(await local.text()).toContain('private address');
      expect(hits).toEqual([]);

      const review = await post('/sources/new', {
        csrf: 'token',
        kind: 'openapi',
        url: 'https://petstore.example/openapi.json',
      });
      const html = await review.text();
      expect(review.status, /role="alert">[^<]*/.exec(html)?.[0]).toBe(200);
      expect(html).toContain(
        '<code>https://api.petstore.example/v2</code>, and no other host than api.petstore.example',
      );
      expect(html).toContain('api_key: API key in header api_key (entered below)');
      expect(html).toContain(
        'A hub in the cloud cannot sign in to an API with OAuth yet, and a push never carries a local hub',
      );
      expect(html).not.toContain('capabilities hub');
      expect(hits).toEqual([{ url: 'https://petstore.example/openapi.json', apiKey: null }]);
      const id = /\/sources\/new\/(draft_[a-f0-9]+)\/confirm/.exec(html)?.[1] ?? '';
      const contracts = [...html.matchAll(/name="(contract:[^"]+)" value="([^"]+)"/g)].map((m) => [
        m[1] as string,
        m[2] as string,
      ]);
      const confirmed = await post(`/sources/new/${id}/confirm`, {
        csrf: 'token',
        namespace: 'petstore',
        choice: 'accept',
        key: KEY,
        ...Object.fromEntries(contracts),
      });
      expect(confirmed.status, await confirmed.clone().text()).toBe(303);
      expect(confirmed.headers.get('location')).toBe('/sources/petstore');
      expect(hub.store.getSource('petstore')).toMatchObject({
        kind: 'openapi',
        document: 'https://petstore.example/openapi.json',
        url: 'https://api.petstore.example/v2',
        allowedHosts: ['api.petstore.example'],
      });
      const connection = hub.store.getConnection('petstore', 'default');
      expect(connection?.secrets[0]?.delivery).toEqual({ kind: 'header', name: 'api_key', scheme: '' });
      expect(held.get(connection?.secrets[0]?.key ?? '')).toBe(KEY);
      expect(JSON.stringify(await engine.upstream.callTool('petstore.getPetById', { petId: 7 }))).toContain(
        'Rex',
      );
      expect(hits.at(-1)).toEqual({ url: 'https://api.petstore.example/v2/pet/7', apiKey: KEY });
      expect(await (await app.request('/sources/petstore')).text()).not.toContain(KEY);
    });
  });
});
