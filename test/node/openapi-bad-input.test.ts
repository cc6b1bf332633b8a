/**
 * OpenAPI documents that go wrong, through the engine the local hub builds (its real connector,
 * a real store in a temp folder, documents as real files and on a loopback server): a document
 * over the size cap, a `$ref` cycle, a `$ref` to another origin, an operation with no usable
 * name, a document that changes between refreshes (J4), a URL that is not an OpenAPI document,
 * and a call the API redirects to another origin. Each says what happened and what to do, and a
 * source that fails to be added leaves nothing behind.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../engine/connectors/openapi/document.ts';
import type { Engine } from '../../engine/engine.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';
import { hubErrorOf } from '../hub-error.ts';
import { hubHome } from './cli-process.ts';

let home: string;
let remove: () => void;
let local: LocalStore;
let hub: Engine;
let server: Server;
let base: string;
/** What the loopback server answers, by path. */
let pages: Map<string, { type: string; body: string; status?: number; location?: string }>;
let hits: string[];

beforeEach(async () => {
  ({ home, remove } = hubHome());
  local = openLocalStore(join(home, 'hub.db'), Date.now());
  hub = engineWithoutSandbox({
    wording: localWording,
    store: local.store,
    connector: localConnector({ version: 'test' }),
    secrets: new EnvFileSecretStore(join(home, 'secrets.env')),
    clock: { now: () => Date.now() },
    random: { bytes: (length) => crypto.getRandomValues(new Uint8Array(length)) },
  });
  pages = new Map();
  hits = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!page) return res.writeHead(404).end();
    res.writeHead(page.status ?? 200, {
      'content-type': page.type,
      ...(page.location ? { location: page.location } : {}),
    });
    res.end(page.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  await new Promise((done) => server.close(done));
  local.close();
  remove();
});

/** A small 3.1 document with `paths`, and `components` when given. */
function api(paths: object, components: object = {}): string {
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Things', version: '1' }, paths, components });
}

function file(name: string, text: string): string {
  const path = join(home, name);
  writeFileSync(path, text);
  return path;
}

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };

async function refusal(document: string, server = `${base}/api`) {
  const error = await hubErrorOf(() => hub.sources.inspect({ kind: 'openapi', document, server }));
  expect(local.store.listSources()).toEqual([]);
  return error;
}

describe('OpenAPI documents the hub refuses, saying why', () => {
  it('a document over the 4 MiB cap, as a file and at a URL', async () => {
    const huge = api({
      '/a': { get: { operationId: 'a', description: 'x'.repeat(MAX_DOCUMENT_BYTES), responses: ok } },
    });
    const fromFile = await refusal(file('huge.json', huge));
    expect(fromFile.code).toBe('limit');
    expect(fromFile.message).toContain("over the hub's 4 MiB (4194304-byte) cap");
    pages.set('/huge.json', { type: 'application/json', body: huge });
    const fromUrl = await refusal(`${base}/huge.json`);
    expect(fromUrl.code).toBe('limit');
    expect(fromUrl.message).toContain('4 MiB');
  });

  it('a $ref cycle that never reaches a definition', async () => {
    const cyclic = api(
      {
        '/a': {
          get: { operationId: 'a', parameters: [{ $ref: '#/components/parameters/One' }], responses: ok },
        },
      },
      {
        parameters: {
          One: { $ref: '#/components/parameters/Two' },
          Two: { $ref: '#/components/parameters/One' },
        },
      },
    );
    const error = await refusal(file('cycle.json', cyclic));
    expect(error.message).toBe(
      'operation GET /a has a $ref cycle that never reaches a definition: #/components/parameters/One → #/components/parameters/Two → #/components/parameters/One. Fix the document.',
    );
  });

  it('a "billion laughs" of references that are not component schemas: a clear limit, at once', async () => {
    // 7 levels of 10 references each would expand to 10^7 copies of the last level.
    const levels: Record<string, object> = {};
    for (let i = 0; i < 7; i++)
      levels[`L${i}`] = {
        allOf: Array.from({ length: 10 }, () => ({ $ref: `#/components/parameters/p/L${i + 1}` })),
      };
    levels.L7 = { type: 'string' };
    const bomb = api(
      {
        '/a': {
          get: {
            operationId: 'a',
            parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/parameters/p/L0' } }],
            responses: ok,
          },
        },
      },
      { parameters: { p: levels } },
    );
    const error = await refusal(file('bomb.json', bomb));
    expect(error.code).toBe('limit');
    expect(error.message).toContain('operation GET /a has schemas of more than 100000 nodes');
  });

  it('a $ref to another origin, and one to another document', async () => {
    const remote = (ref: string) =>
      api({
        '/a': {
          post: {
            operationId: 'a',
            requestBody: { content: { 'application/json': { schema: { $ref: ref } } } },
            responses: ok,
          },
        },
      });
    pages.set('/remote.json', {
      type: 'application/json',
      body: remote('https://evil.example/schemas.json#/Thing'),
    });
    const across = await refusal(`${base}/remote.json`);
    expect(across.code).toBe('denied');
    expect(across.message).toContain(
      "operation POST /a refers to https://evil.example, another origin than the document's",
    );
    expect(hits).toEqual(['/remote.json']);
    const split = await refusal(file('split.json', remote('./schemas.json#/Thing')));
    expect(split.message).toContain(
      'refers to another document (./schemas.json#/Thing); the hub reads one document',
    );
    // On the document's own origin, the document it refers to is read and brought in.
    pages.set('/own.json', { type: 'application/json', body: remote('./parts/schemas.json#/Thing') });
    pages.set('/parts/schemas.json', {
      type: 'application/json',
      body: JSON.stringify({
        Thing: { type: 'object', properties: { part: { $ref: '#/Part' } } },
        Part: { type: 'string' },
      }),
    });
    const own = await hub.sources.inspect({
      kind: 'openapi',
      document: `${base}/own.json`,
      server: `${base}/api`,
    });
    expect(own.manifest.tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { body: { type: 'object', properties: { part: { type: 'string' } } } },
    });
  });

  it('a URL whose answer is not an OpenAPI document', async () => {
    pages.set('/index.html', { type: 'text/html', body: '<html><body>Welcome</body></html>' });
    const error = await refusal(`${base}/index.html`);
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain(
      `${base}/index.html is not an OpenAPI document: it has no "openapi" or "swagger" member at the top`,
    );
    const missing = await refusal(`${base}/nothing.json`);
    expect(missing.message).toBe(
      `the OpenAPI document at ${base}/nothing.json answered HTTP 404. Check its address.`,
    );
  });

  it('a document read from a URL with no servers calls the root of its own origin (OpenAPI’s default)', async () => {
    pages.set('/specs/api.json', {
      type: 'application/json',
      body: api({ '/a': { get: { operationId: 'a', responses: ok } } }),
    });
    const inspection = await hub.sources.inspect({ kind: 'openapi', document: `${base}/specs/api.json` });
    expect(inspection.source).toMatchObject({ kind: 'openapi', url: `${base}/` });
  });

  it('a document with no server and no --server', async () => {
    const error = await hubErrorOf(() =>
      hub.sources.inspect({
        kind: 'openapi',
        document: file('nowhere.json', api({ '/a': { get: { operationId: 'a', responses: ok } } })),
      }),
    );
    expect(error.message).toContain(
      'names no server with an absolute http(s) URL; say where the API is with `capabilities hub add --server <url>`',
    );
  });
});

describe('operation names', () => {
  it('names an operation by method and path when its operationId makes no name, and leaves out one with no name of its own', async () => {
    const document = api({
      '/b': { get: { operationId: 'get_a', responses: ok } },
      '/a': { get: { operationId: '日本語', responses: ok } },
      '/c': { get: { operationId: '???', responses: ok } },
    });
    const inspection = await hub.sources.inspect({
      kind: 'openapi',
      document: file('names.json', document),
      server: `${base}/api`,
    });
    expect(inspection.manifest.tools.map((t) => t.name)).toEqual(['get_a', 'get_c']);
    expect(inspection.notices).toEqual([
      'named operation GET /a by its method and path: its operationId "日本語" makes no tool name',
      'left out operation GET /a: it has no name of its own (no usable operationId, and its method and path name another tool)',
      'named operation GET /c by its method and path: its operationId "???" makes no tool name',
    ]);
  });
});

describe('schemas', () => {
  it('keeps properties named like schema keywords, with their references as $defs', async () => {
    const document = api(
      {
        '/a': {
          post: {
            operationId: 'a',
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      default: { $ref: '#/components/schemas/Node' },
                      'x-id': { type: 'string' },
                    },
                  },
                },
              },
            },
            responses: ok,
          },
        },
      },
      { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } },
    );
    const inspection = await hub.sources.inspect({
      kind: 'openapi',
      document: file('named.json', document),
      server: `${base}/api`,
    });
    expect(inspection.manifest.tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: {
        body: {
          type: 'object',
          properties: { default: { $ref: '#/$defs/Node' }, 'x-id': { type: 'string' } },
        },
      },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    });
  });
});

describe('a document that changes between refreshes (J4)', () => {
  it('shows the changed tool, and a method flip is a new contract that asks again', async () => {
    const path = file(
      'things.json',
      api({ '/things': { get: { operationId: 'listThings', responses: ok } } }),
    );
    const inspection = await hub.sources.inspect(
      { kind: 'openapi', document: path, server: `${base}/api` },
      'things',
    );
    hub.sources.addSource(inspection, new Map([['things.listThings', 'allow']]));
    const before = local.store.getTool('things.listThings');
    expect(before?.operation?.method).toBe('get');
    expect(hub.sources.pendingReview('things')).toEqual([]);

    writeFileSync(
      path,
      api({
        '/things': { post: { operationId: 'listThings', responses: ok } },
        '/things/{id}': {
          delete: {
            operationId: 'deleteThing',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: ok,
          },
        },
      }),
    );
    const refreshed = await hub.sources.refresh('things');
    expect(refreshed.added).toEqual(['things.deleteThing']);
    expect(refreshed.changed.map((c) => c.address)).toEqual(['things.listThings']);
    const after = local.store.getTool('things.listThings');
    expect(after?.operation?.method).toBe('post');
    expect(after?.contract).not.toBe(before?.contract);
    expect(hub.sources.pendingReview('things').map((item) => item.address)).toEqual([
      'things.listThings',
      'things.deleteThing',
    ]);
  });
});

describe('calls', () => {
  it('refuses a redirect to another origin, so the key never leaves the API', async () => {
    const document = api({ '/a': { get: { operationId: 'a', responses: ok } } });
    const inspection = await hub.sources.inspect(
      { kind: 'openapi', document: file('a.json', document), server: `${base}/api` },
      'moved',
    );
    hub.sources.addSource(inspection, new Map([['moved.a', 'allow']]));
    await hub.sources.saveCredential(
      'moved',
      'default',
      { kind: 'query', name: 'key' },
      'query-key-12345678',
    );
    pages.set('/api/a', {
      type: 'text/plain',
      body: '',
      status: 302,
      location: 'https://elsewhere.example/a',
    });
    const outcome = await hub.upstream.callTool('moved.a', {});
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).toContain('refused a redirect to another origin');
    expect(JSON.stringify(outcome)).not.toContain('query-key-12345678');
    expect(hits).toEqual(['/api/a?key=query-key-12345678']);
  });
});
