/**
 * Adding an OpenAPI document from the dashboard (dashboard/source-add-routes.tsx over
 * engine.drafts): the Swagger Petstore of @readme/oas-examples, served on loopback with an API
 * behind its `api_key` header, chosen on the form, read without a key, reviewed with its API
 * server, allowed hosts and the credentials it asks for, and stored as shown with the key typed on
 * the review as the `default` connection, which a call then sends; HTTP basic as a user and a
 * password; an OAuth sign-in said in the local hub's words; the key in no page, the CSRF and
 * session rules as for a server.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSRF, reviewOf, World } from './dashboard-add-world.ts';

let world: World;
beforeEach(() => {
  world = new World();
});
afterEach(async () => {
  await world.close();
});

const PETSTORE = JSON.parse(
  readFileSync(
    join(
      import.meta.dirname,
      '..',
      '..',
      'node_modules',
      '@readme',
      'oas-examples',
      '3.0',
      'json',
      'petstore.json',
    ),
    'utf8',
  ),
) as { components: { securitySchemes: Record<string, unknown> }; security?: unknown };
const KEY = 'pet-key-from-the-dashboard-51c0';

/**
 * The Petstore document and its API on loopback: `/openapi.json` as published (an implicit OAuth
 * flow, which the hub does not support, and `api_key` in a header); `/signed.json` with HTTP basic
 * first and an authorization code flow; `/plain.json`, JSON that is no OpenAPI document; the
 * API's getPetById behind the `api_key` header.
 */
class Petstore {
  readonly hits: Array<{ url: string; apiKey: string | undefined; authorization: string | undefined }> = [];
  readonly server: Server = createServer((req, res) => {
    const apiKey = req.headers.api_key as string | undefined;
    this.hits.push({ url: req.url ?? '', apiKey, authorization: req.headers.authorization });
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/openapi.json') return json(200, PETSTORE);
    if (req.url === '/signed.json')
      return json(200, {
        ...PETSTORE,
        security: [{ basic: [] }],
        components: {
          ...PETSTORE.components,
          securitySchemes: {
            basic: { type: 'http', scheme: 'basic' },
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
            api_key: PETSTORE.components.securitySchemes.api_key,
          },
        },
      });
    if (req.url === '/plain.json') return json(200, { hello: 'not a document' });
    if (apiKey !== KEY) return json(401, { message: 'missing or wrong api_key' });
    if (req.url === '/v2/pet/7') return json(200, { id: 7, name: 'Rex', photoUrls: [] });
    json(404, { message: 'no such operation here' });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('adding an OpenAPI document from the dashboard', () => {
  let petstore: Petstore;
  let base: string;
  beforeEach(async () => {
    petstore = new Petstore();
    base = await petstore.start();
  });
  afterEach(async () => {
    for (const page of world.pages) expect(page).not.toContain(KEY);
    await petstore.stop();
  });

  const beginDocument = (path: string, extra: Record<string, string> = {}) =>
    world.request('/sources/new', {
      csrf: CSRF,
      kind: 'openapi',
      url: `${base}${path}`,
      credential: '',
      header: 'Authorization',
      scheme: 'Bearer',
      server: `${base}/v2`,
      ...extra,
    });

  it('reads the document without a key, reviews its operations, server and credentials, and stores what was shown with the key typed as the default connection', async () => {
    const form = await world.request('/sources/new');
    expect(form.html).toContain('<input type="radio" name="kind" value="mcp-http" checked=""/>');
    expect(form.html).toContain('<input type="radio" name="kind" value="openapi"/>');
    expect(form.html).toContain('name="server"');

    const review = await beginDocument('/openapi.json');
    expect(review.status, /role="alert">[^<]*/.exec(review.html)?.[0]).toBe(200);
    const host = new URL(base).host;
    expect(review.html).toContain(`<code>${base}/openapi.json</code>`);
    expect(review.html).toContain(`<code>${base}/v2</code>, and no other host than ${host}`);
    expect(review.html).toContain('Swagger Petstore 1.0.0');
    expect(review.html).toContain('api_key: API key in header api_key (entered below)');
    expect(review.html).toContain(
      'petstore_auth: OAuth 2 with the implicit flow, which the hub does not support (only the authorization code flow can be signed in to); its operations are added and called without it',
    );
    expect(review.html).toContain('<input id="key" name="key" type="password" autocomplete="off"/>');
    expect(review.html).not.toContain('cannot run this sign-in');
    expect(review.html).toContain('left out operation POST /pet/{petId}/uploadImage');
    // Only the document was read, without a key; the API was not called.
    expect(petstore.hits).toEqual([{ url: '/openapi.json', apiKey: undefined, authorization: undefined }]);
    const shown = reviewOf(review.html);
    const draft = world.engine.drafts.get(shown.id)?.record;
    expect(draft?.source).toMatchObject({
      kind: 'openapi',
      document: `${base}/openapi.json`,
      url: `${base}/v2`,
      allowedHosts: [host],
    });
    expect(draft?.asks.map((ask) => ask.scheme)).toEqual(['petstore_auth', 'api_key']);
    expect(world.draftKeys()).toEqual([]);

    const confirmed = await world.request(`/sources/new/${shown.id}/confirm`, {
      csrf: CSRF,
      namespace: 'petstore',
      choice: 'accept',
      key: KEY,
      ...shown.contracts,
    });
    expect(confirmed.status, /role="alert">[^<]*/.exec(confirmed.html)?.[0]).toBe(303);
    expect(confirmed.location).toBe('/sources/petstore');
    const store = world.local.store;
    expect(store.getSource('petstore')).toEqual({ ...draft?.source, namespace: 'petstore' });
    expect(store.getManifest('petstore')?.tools.length).toBe(Object.keys(shown.contracts).length);
    expect(world.engine.sources.pendingReview('petstore')).toEqual([]);
    const connection = store.getConnection('petstore', 'default');
    expect(connection).toMatchObject({
      isDefault: true,
      secrets: [{ delivery: { kind: 'header', name: 'api_key', scheme: '' } }],
    });
    expect(world.held.get(connection?.secrets[0]?.key ?? '')).toBe(KEY);
    // The key reaches the API with the call, at the server shown.
    const pet = JSON.stringify(await world.engine.upstream.callTool('petstore.getPetById', { petId: 7 }));
    expect(pet).toContain('Rex');
    expect(petstore.hits.at(-1)).toMatchObject({ url: '/v2/pet/7', apiKey: KEY });
    expect((await world.request('/sources/petstore')).html).toContain('default (default)');
  });

  it('calls go to the document’s own first server when none is given', async () => {
    const review = await beginDocument('/openapi.json', { server: '' });
    expect(review.status).toBe(200);
    expect(review.html).toContain(
      '<code>http://petstore.swagger.io/v2</code>, and no other host than petstore.swagger.io',
    );
    const shown = reviewOf(review.html);
    expect(world.engine.drafts.get(shown.id)?.record.source).toMatchObject({
      url: 'http://petstore.swagger.io/v2',
      allowedHosts: ['petstore.swagger.io'],
    });
  });

  it('takes HTTP basic as a user and a password, and says how to sign in to an OAuth flow on this host', async () => {
    const review = await beginDocument('/signed.json');
    expect(review.status).toBe(200);
    expect(review.html).toContain('basic: HTTP basic (user and password) (entered below)');
    expect(review.html).toContain(
      'api_key: API key in header api_key (not entered here: this page takes one key)',
    );
    expect(review.html).toContain(
      'petstore_auth: OAuth 2 sign-in (authorization code flow) (a sign-in: see below)',
    );
    expect(review.html).toContain('<input id="user" name="user" type="text" autocomplete="off"/>');
    expect(review.html).toContain(
      '<input id="password" name="password" type="password" autocomplete="off"/>',
    );
    expect(review.html).toContain('The dashboard cannot run this sign-in');
    expect(review.html).toContain(
      'sign in from a terminal with `capabilities hub auth swagger_petstore --oauth --connection signed-in`',
    );
    const shown = reviewOf(review.html);
    const form = { csrf: CSRF, namespace: 'pets', choice: 'accept', ...shown.contracts };
    const half = await world.request(`/sources/new/${shown.id}/confirm`, { ...form, user: 'ana' });
    expect(half.status).toBe(400);
    expect(half.html).toContain('takes a user and a password; enter both');
    expect(world.local.store.listSources()).toEqual([]);
    const done = await world.request(`/sources/new/${shown.id}/confirm`, {
      ...form,
      user: 'ana',
      password: KEY,
    });
    expect(done.status).toBe(303);
    const connection = world.local.store.getConnection('pets', 'default');
    expect(connection?.secrets[0]?.delivery).toEqual({
      kind: 'header',
      name: 'Authorization',
      scheme: 'Basic',
    });
    expect(world.held.get(connection?.secrets[0]?.key ?? '')).toBe(btoa(`ana:${KEY}`));
  });

  it('without a key the source is added with no connection; a key too short is refused and the draft kept', async () => {
    const shown = reviewOf((await beginDocument('/openapi.json')).html);
    const form = { csrf: CSRF, namespace: 'petstore', choice: 'accept', ...shown.contracts };
    const short = await world.request(`/sources/new/${shown.id}/confirm`, { ...form, key: 'short' });
    expect(short.status).toBe(400);
    expect(short.html).toContain('shorter than 8 characters');
    expect(short.html).toContain('<input id="key" name="key" type="password" autocomplete="off"/>');
    expect(world.local.store.listSources()).toEqual([]);
    const bare = await world.request(`/sources/new/${shown.id}/confirm`, { ...form, key: '' });
    expect(bare.status).toBe(303);
    expect(world.local.store.getSource('petstore')?.kind).toBe('openapi');
    expect(world.local.store.listConnections('petstore')).toEqual([]);
  });

  it('refuses, before reading anything, a credential or a server given for the other kind and a URL that is not http(s); a URL that is no document, or answers an error, is said', async () => {
    const keyed = await beginDocument('/openapi.json', { credential: KEY });
    expect(keyed.status).toBe(400);
    expect(keyed.html).toContain('leave the credential empty and enter the key on the next page');
    expect(keyed.html).toContain('<input type="radio" name="kind" value="openapi" checked=""/>');
    const served = await world.request('/sources/new', {
      csrf: CSRF,
      url: `${base}/mcp`,
      server: `${base}/v2`,
    });
    expect(served.status).toBe(400);
    expect(served.html).toContain('The API’s base URL is for an OpenAPI document');
    const file = await world.request('/sources/new', {
      csrf: CSRF,
      kind: 'openapi',
      url: 'file:///etc/openapi.json',
    });
    expect(file.status).toBe(400);
    expect(file.html).toContain('A file: address is not a document the dashboard reads');
    expect(petstore.hits).toEqual([]);

    const plain = await beginDocument('/plain.json');
    expect(plain.status).toBe(400);
    expect(plain.html).toContain('is not an OpenAPI document');
    const missing = await beginDocument('/missing.json');
    expect(missing.status).toBe(502);
    expect(missing.html).toContain('answered HTTP 401');
    expect(world.local.store.listSources()).toEqual([]);
  });

  it('refuses a confirmation carrying a key without the session’s token, or from a run’s session, and stores nothing', async () => {
    const shown = reviewOf((await beginDocument('/openapi.json')).html);
    const form = { namespace: 'petstore', choice: 'accept', key: KEY, ...shown.contracts };
    const forged = await world.request(`/sources/new/${shown.id}/confirm`, { ...form, csrf: 'wrong' });
    expect(forged.status).toBe(403);
    const run = await world.request(
      `/sources/new/${shown.id}/confirm`,
      { ...form, csrf: CSRF },
      { kind: 'run', runId: 'run_abc' },
    );
    expect(run.status).toBe(403);
    expect(world.local.store.listSources()).toEqual([]);
    expect([...world.held.values()]).not.toContain(KEY);
  });
});
