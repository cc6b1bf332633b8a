/**
 * I4, "No way out" (spec: Security and approvals: "upstream traffic goes only to allowlisted
 * hosts; credentials stay on their origin"). The roads from the hub to an upstream HTTP API:
 * what an upstream answers cannot lead the hub, or the key it holds, to another origin, cannot
 * hand the model headers outside the allowlist, and arguments the guest builds cannot move a
 * request off the host the source was reviewed with.
 *
 * One local hub: an OpenAPI stand-in (node:http on 127.0.0.1, its document written here) added
 * through the real CLI (`hub add <document> --server … --yes`, the API key typed on standard
 * input), and a second listener on another loopback port (another origin) that records every
 * request and its headers. The official MCP client over stdio runs guest code through execute.
 *
 * | Way in            | Attack                                                    | Held                    |
 * | ----------------- | --------------------------------------------------------- | ----------------------- |
 * | Upstream redirect | 301/302/303/307/308 to another port, `//host`, localhost  | refused; other listener |
 * |                   |                                                           | hears nothing; no key   |
 * | Upstream headers  | Set-Cookie, X-Secret-Header, the key in X-Echo-Key and in | allowlisted ones only,  |
 * |                   | Link, on a 200 and on a 500                               | key scrubbed            |
 * | Guest arguments   | absolute URL, `//host`, `@host`, `\\host`, `../`, `?`/`#` | encoded under the       |
 * |                   | in a path parameter; `url`/`server`/`host`/`baseUrl` args | reviewed host and path  |
 *
 * Also held by: test/node/openapi-request.test.ts (buildRequest encodes path arguments and
 * refuses dot segments; callResult's header allowlist), test/node/openapi-server.test.ts (server
 * URLs refused at add), test/node/sources-private.test.ts and test/workers/private-upstreams.test.ts
 * (private places refused on the hosted hub), test/node/openapi-cli.test.ts (the key reaches only
 * the API), test/invariants/i4-no-way-out.test.ts (guest code has no network of its own).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, collected, hubHome } from '../node/cli-process.ts';
import { stdioClient } from '../node/surface-fixture.ts';

const KEY = 'i4-upstream-key-5c1e9a77b0d2';
const SECRET_HEADER = 'x-secret-header-value-31f0';
const COOKIE = 'session=cookie-value-8d2e';

interface Heard {
  url: string;
  headers: IncomingHttpHeaders;
}

let removeHome: () => void;
let client: Client;
let api: Server;
let other: Server;
let base = '';
let elsewhere = '';
/** What the stand-in API heard (the document reads included). */
const apiHeard: Heard[] = [];
/** What the listener on the other origin heard: it must stay empty. */
const otherHeard: Heard[] = [];

/** The stand-in's OpenAPI document: three reads behind an API key header. */
const document = () => ({
  openapi: '3.0.3',
  info: { title: 'upstream', version: '1' },
  servers: [{ url: base }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
  security: [{ key: [] }],
  paths: {
    '/moved/{status}': {
      get: {
        operationId: 'moved',
        parameters: [{ name: 'status', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/headers/{status}': {
      get: {
        operationId: 'headers',
        parameters: [{ name: 'status', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/things/{id}': {
      get: {
        operationId: 'thing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  other = createServer((req, res) => {
    otherHeard.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":"the other origin"}');
  });
  elsewhere = await listen(other);
  api = createServer((req, res) => {
    apiHeard.push({ url: req.url ?? '', headers: req.headers });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document()));
      return;
    }
    const moved = /^\/moved\/(.+)$/.exec(path);
    if (moved) {
      const [status, scheme] = (moved[1] ?? '').split('-');
      const where: Record<string, string> = {
        relative: elsewhere.replace('http:', ''),
        localhost: base.replace('127.0.0.1', 'localhost'),
      };
      const location = `${where[scheme ?? ''] ?? elsewhere}/stolen`;
      res.writeHead(Number(status), { location }).end();
      return;
    }
    const headers = /^\/headers\/(\d+)$/.exec(path);
    if (headers) {
      res
        .writeHead(Number(headers[1]), {
          'content-type': 'application/json',
          'set-cookie': COOKIE,
          'x-secret-header': SECRET_HEADER,
          'x-echo-key': KEY,
          link: `<${base}/next?key=${KEY}>; rel="next"`,
          'x-ratelimit-remaining': '41',
        })
        .end('{"ok":true}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
  });
  base = await listen(api);
  const made = hubHome();
  removeHome = made.remove;
  const add = spawn(
    BIN,
    ['--json', 'hub', 'add', `${base}/openapi.json`, '--server', base, '--namespace', 'up', '--yes'],
    { cwd: tmpdir(), env: cliEnv(made.home), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  add.stdin?.end(`${KEY}\n`);
  const added = await collected(add, 'hub add');
  expect(added.status, added.stderr).toBe(0);
  expect(added.stdout).not.toContain(KEY);
  client = (await stdioClient(made.home, 'auto')).client;
}, 60_000);

afterAll(async () => {
  await client?.close();
  await Promise.all([api, other].map((s) => new Promise((done) => s?.close(done))));
  removeHome?.();
});

/** execute's whole answer as text (content and structured content), and its result value. */
async function execute(code: string): Promise<{ text: string; result: unknown }> {
  const answer = await client.callTool({ name: 'execute', arguments: { code } });
  const structured = answer.structuredContent as { result?: unknown } | undefined;
  return { text: JSON.stringify(answer), result: structured?.result };
}

describe('I4: the roads from the hub to upstream HTTP', () => {
  it('refuses a redirect to another origin: the other listener hears nothing, no key in it', async () => {
    apiHeard.length = 0;
    const statuses = ['301', '302', '303', '307', '308', '302-relative', '307-localhost'];
    const { text, result } = await execute(`
      const out = {};
      for (const status of ${JSON.stringify(statuses)}) {
        try { out[status] = { answered: await up.moved({ status }) }; }
        catch (e) { out[status] = { refused: String(e && e.message) }; }
      }
      return out;
    `);
    expect(otherHeard).toEqual([]);
    for (const status of statuses) {
      expect((result as Record<string, { refused?: string }>)[status]?.refused, status).toContain(
        'refused a redirect to another origin',
      );
    }
    // Each call reached the API once, with the key; no hop followed, not even back to its own port.
    expect(apiHeard.map((h) => [h.url, h.headers['x-api-key']])).toEqual(
      statuses.map((status) => [`/moved/${status}`, KEY]),
    );
    expect(text).not.toContain(KEY);
  }, 60_000);

  it('hands the model only allowlisted response headers, and never the key in one', async () => {
    const { text, result } = await execute(`
      const ok = await up.headers({ status: '200' }, { response: true });
      let failed;
      try { await up.headers({ status: '500' }); } catch (e) { failed = e.headers; }
      return { ok: ok.headers, failed };
    `);
    const seen = result as { ok?: Record<string, string>; failed?: Record<string, string> } | undefined;
    for (const headers of [seen?.ok, seen?.failed]) {
      expect(Object.keys(headers ?? {}).sort()).toEqual(['content-type', 'link', 'x-ratelimit-remaining']);
      expect(headers?.link).toContain('key=[secret]');
      expect(headers?.['x-ratelimit-remaining']).toBe('41');
    }
    for (const leaked of [
      SECRET_HEADER,
      'cookie-value-8d2e',
      'set-cookie',
      'x-secret-header',
      'x-echo-key',
      KEY,
    ])
      expect(text.toLowerCase(), leaked).not.toContain(leaked.toLowerCase());
  }, 60_000);

  it('keeps a request the guest builds on the reviewed host and path', async () => {
    apiHeard.length = 0;
    const port = new URL(elsewhere).port;
    const ids = [
      `${elsewhere}/x`,
      `//127.0.0.1:${port}/x`,
      `@127.0.0.1:${port}`,
      `\\\\127.0.0.1:${port}\\x`,
      '../../x',
      `x?next=${elsewhere}#frag`,
    ];
    const extras = [
      { url: elsewhere },
      { server: elsewhere },
      { host: `127.0.0.1:${port}`, baseUrl: elsewhere },
    ];
    const { text, result } = await execute(`
      const out = [];
      for (const id of ${JSON.stringify(ids)}) {
        try { out.push((await up.thing({ id })).path); }
        catch (e) { out.push('refused: ' + e.message); }
      }
      for (const extra of ${JSON.stringify(extras)}) {
        try { out.push((await up.thing({ id: 'plain', ...extra })).path); }
        catch (e) { out.push('refused: ' + e.message); }
      }
      return out;
    `);
    expect(otherHeard).toEqual([]);
    expect(result).toEqual(apiHeard.map((h) => h.url));
    expect(text).not.toContain('the other origin');
    for (const heard of apiHeard) {
      expect(heard.url).toMatch(/^\/things\/[^/?#]+$/);
      expect(heard.headers.host).toBe(new URL(base).host);
    }
    expect(apiHeard).toHaveLength(ids.length + extras.length);
  }, 60_000);
});
