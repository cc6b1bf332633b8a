/**
 * What code sees of an OpenAPI tool's answer, through `execute` in the real sandbox: the body as
 * the result; with `{ response: true }` the status, the body and only the allowlisted response
 * headers (content type, retry-after, link, rate limits; never set-cookie or server), scrubbed of
 * the key like everything else from upstream; an error status as a ToolError with `status`,
 * `headers`, `retryable` for 429 (and 5xx on a read-only tool) and a hint from the body. And the
 * TypeScript `describe` gives says exactly that, and compiles.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../engine/engine.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import { cryptoRandom, systemClock } from '../../engine/system.ts';
import { describeTargets } from '../../engine/typegen/index.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { compile, formatDiagnostic } from '../engine/typegen-compile.ts';
import { hubHome } from './cli-process.ts';

const KEY = 'pets-key-4c8e1a9f3b7d';
const json = { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } };
const DOCUMENT = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  components: {
    schemas: { Pet: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'key' } },
  },
  security: [{ key: [] }],
  paths: {
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: json } },
      },
    },
    '/limited': { get: { operationId: 'limited', responses: { '200': { description: 'ok' } } } },
    '/broken': { get: { operationId: 'broken', responses: { '200': { description: 'ok' } } } },
    '/pets': { post: { operationId: 'addPet', responses: { '200': { description: 'ok', content: json } } } },
    '/hello': { get: { operationId: 'hello', responses: { '200': { description: 'ok' } } } },
  },
});

const sandbox = new QuickJsSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

let home: string;
let remove: () => void;
let local: LocalStore;
let engine: Engine;
let server: Server;
let base: string;
let connector: ReturnType<typeof localConnector>;

beforeEach(async () => {
  ({ home, remove } = hubHome());
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (path === '/openapi.json')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT);
    if (url.searchParams.get('key') !== KEY) return res.writeHead(401).end();
    if (path === '/api/pets/1') {
      return res
        .writeHead(200, {
          'content-type': 'application/json',
          // The API quotes the key back in its pagination link: the code must get it scrubbed.
          link: `<${base}/api/pets/2?key=${KEY}>; rel="next"`,
          'x-ratelimit-remaining': '41',
          ratelimit: 'limit=50, remaining=41, reset=12',
          'set-cookie': `session=${KEY}`,
          server: 'pets/1.0',
          'x-request-id': 'req-77',
        })
        .end(JSON.stringify({ id: 1, name: 'Rex' }));
    }
    if (path === '/api/limited') {
      return res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30', 'set-cookie': 'a=b' })
        .end(JSON.stringify({ error: { message: 'at most 50 calls a minute' } }));
    }
    if (path === '/api/broken') return res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    if (path === '/api/pets') {
      return res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `the database refused ${KEY}` }));
    }
    if (path === '/api/hello') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  local = openLocalStore(join(home, 'hub.db'), Date.now());
  connector = localConnector({ version: 'test' });
  engine = createEngine({
    wording: localWording,
    store: local.store,
    connector,
    secrets: new EnvFileSecretStore(join(home, '.env')),
    clock: systemClock,
    random: cryptoRandom,
    sandbox: () => sandbox,
  });
  const inspection = await engine.sources.inspect(
    { kind: 'openapi', document: `${base}/openapi.json`, server: `${base}/api` },
    'pets',
  );
  engine.sources.addSource(inspection, new Map(inspection.review.map((item) => [item.address, 'allow'])));
  await engine.sources.saveCredential('pets', 'default', { kind: 'query', name: 'key' }, KEY);
});

afterEach(async () => {
  await connector.close();
  await new Promise((done) => server.close(done));
  local.close();
  remove();
});

describe("an OpenAPI tool's answer, as code sees it", () => {
  it('is the body; with { response: true } also the status and only the allowlisted headers, scrubbed', async () => {
    const runs = await engine.runs();
    const done = await runs.execute(`
      const body = await pets.getPet({ id: 1 });
      const whole = await pets.getPet({ id: 1 }, { response: true });
      const text = await pets.hello({}, { response: true });
      return { body, whole, text };
    `);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.result).toEqual({
      body: { id: 1, name: 'Rex' },
      whole: {
        status: 200,
        headers: {
          'content-type': 'application/json',
          link: `<${base}/api/pets/2?key=${SCRUBBED}>; rel="next"`,
          'x-ratelimit-remaining': '41',
          ratelimit: 'limit=50, remaining=41, reset=12',
        },
        body: { id: 1, name: 'Rex' },
      },
      text: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'hello' },
    });
    const journal = JSON.stringify(local.store.listJournal(done.runId));
    expect(journal).not.toContain(KEY);
    expect(journal).not.toContain('set-cookie');
  });

  it('an error status is a ToolError with status, headers, retryable and a hint from the body', async () => {
    const runs = await engine.runs();
    const done = await runs.execute(`
      const seen = [];
      for (const call of [() => pets.limited({}), () => pets.broken({}), () => pets.addPet({})]) {
        try { await call(); seen.push("no error"); }
        catch (e) {
          seen.push({ name: e.name, code: e.code, status: e.status, retryable: e.retryable, hint: e.hint ?? null, headers: e.headers });
        }
      }
      return seen;
    `);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(done.result).toEqual([
      {
        name: 'ToolError',
        code: 'upstream_error',
        status: 429,
        retryable: true,
        hint: 'the API limits how often it is called: wait before calling again; the API says: at most 50 calls a minute',
        headers: { 'content-type': 'application/json', 'retry-after': '30' },
      },
      // A GET is read-only: calling it again after a 5xx is safe.
      {
        name: 'ToolError',
        code: 'upstream_error',
        status: 503,
        retryable: true,
        hint: null,
        headers: { 'content-type': 'text/plain' },
      },
      // A POST may have been half done: a 5xx is not retryable; the body's message is the hint, scrubbed.
      {
        name: 'ToolError',
        code: 'upstream_error',
        status: 500,
        retryable: false,
        hint: `the API says: the database refused ${SCRUBBED}`,
        headers: { 'content-type': 'application/json' },
      },
    ]);
    expect(JSON.stringify(local.store.listJournal(done.runId))).not.toContain(KEY);
  });

  it('describe declares the whole answer for { response: true } and the body otherwise, and compiles', () => {
    const manifest = local.store.getManifest('pets');
    if (!manifest) throw new Error('no manifest');
    const answer = describeTargets([manifest], ['pets'], { budgetTokens: 20_000 });
    expect(answer.text).toContain(
      'getPet<O extends HttpCallOptions = CallOptions>(input: { id: number }, options?: O): Promise<HttpAnswer<O, pets.GetPetOutput>>;',
    );
    const use = `
async function use(): Promise<void> {
  const body: pets.GetPetOutput = await pets.getPet({ id: 1 });
  const work: pets.GetPetOutput = await pets.getPet({ id: 1 }, { connection: "work" });
  const whole = await pets.getPet({ id: 1 }, { response: true });
  const status: number = whole.status;
  const link: string | undefined = whole.headers.link;
  const pet: pets.GetPetOutput = whole.body;
  console.log(body, work, status, link, pet);
}
declare const console: { log(...values: unknown[]): void };
`;
    const compiled = compile([{ name: 'pets.ts', text: answer.text + use }]);
    try {
      expect(compiled.diagnostics.map(formatDiagnostic)).toEqual([]);
    } finally {
      compiled.remove();
    }
    const wrong = compile([
      {
        name: 'wrong.ts',
        text: `${answer.text}async function no(): Promise<number> { return (await pets.getPet({ id: 1 })).status; }\n`,
      },
    ]);
    try {
      expect(wrong.diagnostics.length).toBeGreaterThan(0);
    } finally {
      wrong.remove();
    }
  });
});
