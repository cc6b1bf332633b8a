/**
 * I4 (test/invariants/i4-upstreams.suite.ts) on the hosted hub, "No way out" (spec: Security and
 * approvals: "upstream traffic goes only to allowlisted hosts; credentials stay on their origin"),
 * in workerd, against the Worker's own fetch. The hosted hub
 * adds a road the local one leaves open on purpose: it must never be led to a private address
 * (server-side request forgery), whether a person types one, a push carries one, a source stored
 * before the guard holds one, or an upstream redirects to one.
 *
 * Each describe has its own person (a fresh GitHub id): a signed-in browser (session cookie and CSRF
 * token, test/workers/people.ts) on the dashboard's add-source form, an OAuth token with
 * `hub:configure` on the hub API's push, and an MCP token with the official SDK client on /mcp for
 * runs (test/workers/oauth-flow.ts). The upstream is a room of test/fixtures/upstream-standin.ts
 * at https://upstream.invariants.example (answered in Node, which counts what reaches it): its
 * OpenAPI document is added through the dashboard as a person adds one, the API key typed on the
 * review. A private address cannot be listened on from workerd, so a refusal is held by its
 * wording, by nothing stored, and by the room hearing nothing it should not.
 *
 * | Way in            | Attack                                                   | Held                    |
 * | ----------------- | -------------------------------------------------------- | ----------------------- |
 * | Dashboard add     | an MCP server, an OpenAPI document, a public document    | refused in the hosted   |
 * |                   | whose API server is private, at 21 private forms         | words; nothing stored;  |
 * |                   | (loopback written 7 ways, IPv4-mapped, RFC 1918,         | the room hears nothing  |
 * |                   | metadata, link-local, ULA, CGNAT, 0.0.0.0, localhost,    |                         |
 * |                   | x.localhost, metadata.google.internal, a dotless name)   |                         |
 * | Hub API push      | the same forms as MCP sources; an OpenAPI source on      | each skipped, saying    |
 * |                   | the room with a private allowed host                     | why; nothing stored     |
 * | Stored source     | a reviewed source at each private form (written before   | refused at the request, |
 * |                   | the guard), read by a run through /mcp                   | not fetched             |
 * | Upstream redirect | the room's 302 to loopback or metadata, for OpenAPI calls   | refused; the room hears |
 * |                   | and two MCP servers behind it                             | no hop; no key          |
 * | the suite's       | redirects to another origin, headers outside the          | as the suite says       |
 * |                   | allowlist, requests the guest builds                      |                         |
 *
 * Not checked by the hub itself: a public name whose DNS answer is a private address (e.g.
 * 127.0.0.1.nip.io passes the guard). engine/connectors/private-address.ts judges the host as written
 * and says so; the other half of the defence is the runtime: a deployed Worker's fetch goes out
 * through Cloudflare's network, which does not route to private or loopback addresses. That is the
 * platform's guarantee rather than a gap of the product, so it is stated here, not tested (a test
 * would send a request to the internet from miniflare, which does not hold it). The development
 * setting ALLOW_PRIVATE_UPSTREAMS=1 turns the guard off. Not on the hosted hub: a stdio source (no
 * program runs there), a second local listener on another port (an origin is a host name here).
 *
 * Also held by: test/workers/private-upstreams.test.ts (the guard at add and at read, and its
 * development setting), test/engine/private-address.test.ts and test/node/sources-private.test.ts
 * (every private range, odd spellings), test/workers/hub-push.test.ts (a private source skipped by
 * a push), test/workers/dashboard-add-source.test.ts (a private OpenAPI document),
 * test/invariants/i4-upstreams.test.ts (the suite's local runner, with a listener at another
 * origin), test/invariants/i4-no-way-out.test.ts (guest code has no network of its own).
 */
import { runInDurableObject } from 'cloudflare:test';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import {
  CONFIGURATION_FORMAT,
  HOSTED_PATHS,
  type HubConfiguration,
  type PlanAnswer,
} from '../../engine/contracts/configuration.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { CLI_REDIRECT, call, envelope, mcpClient, ORIGIN, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf, reviewedSource, signedIn } from '../workers/people.ts';
import { type UpstreamRoom, upstreamRoom } from '../workers/upstream.ts';
import { describeUpstreams } from './i4-upstreams.suite.ts';

const KEY = 'i4-room-key-9d3f62a1c0b7';

/** Every private form, as a URL's host, and the reason the guard gives for it. */
const PRIVATE: readonly (readonly [host: string, reason: string])[] = [
  ['127.0.0.1', 'loopback'],
  ['127.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['[::1]', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback (IPv4-mapped)'],
  ['[::ffff:7f00:1]', 'loopback (IPv4-mapped)'],
  ['10.0.0.1', 'private network'],
  ['172.16.0.1', 'private network'],
  ['192.168.1.1', 'private network'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['[fe80::1]', 'link-local'],
  ['[fc00::1]', 'unique local (private network)'],
  ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
  ['0.0.0.0', 'this network (0.0.0.0/8, which reaches the machine itself)'],
  ['localhost', 'loopback (localhost)'],
  ['x.localhost', 'loopback (localhost)'],
  ['metadata.google.internal', 'cloud metadata'],
  ['intranet', 'a name without a domain (resolved only on a local network)'],
];

const HOSTED = 'this hub reaches only servers on the public internet';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let next = 140_000;

/** A fresh person: their hub's name, a signed-in browser's form poster, and an MCP token. */
async function person() {
  next += 1;
  const id = next;
  const browser = await signedIn(id, `i4w${id}`);
  const post = (path: string, form: Record<string, string>) =>
    call(path, {
      method: 'POST',
      headers: { ...FORM, cookie: browser.cookie, origin: ORIGIN },
      body: new URLSearchParams({ csrf: browser.csrf, ...form }),
    });
  return { id, hub: `github:${id}`, post };
}

const sourcesOf = (hub: string) =>
  runInDurableObject(hubOf(hub), async (object: HubObject) => object.store.listSources());

/** The alert a dashboard page shows, or the page's start. */
const alertOf = (html: string) => /role="alert">([^<]*)/.exec(html)?.[1] ?? html.slice(0, 300);

/** Runs `code` through /mcp with `token`: the envelope and the whole answer as text. */
async function execute(client: Client, code: string) {
  const answer = await client.callTool({ name: 'execute', arguments: { code } });
  return { envelope: (envelope(answer) ?? {}) as ExecuteEnvelope, text: JSON.stringify(answer) };
}

describe('I4 on the hosted hub: adding a source at a private address', () => {
  it('dashboard: every private form refused, for an MCP server, a document, an API server', async () => {
    const { hub, post } = await person();
    const room = upstreamRoom('i4-add');
    for (const [host, reason] of PRIVATE) {
      const forms: Record<string, string>[] = [
        { kind: 'mcp-http', url: `http://${host}/mcp` },
        { kind: 'openapi', url: `https://${host}/openapi.json` },
        { kind: 'openapi', url: room.documentUrl, server: `https://${host}/api` },
      ];
      for (const form of forms) {
        const answer = await post('/sources/new', form);
        const alert = alertOf(await answer.text());
        expect(answer.status, `${form.kind} ${host}`).toBe(400);
        expect(alert, host).toContain(`cannot add a source at a private address (${reason}): ${HOSTED}`);
      }
    }
    expect(await sourcesOf(hub)).toEqual([]);
    // Not even the public document was read: the API server was refused first.
    expect(await room.calls()).toEqual([]);
  }, 60_000);

  it('hub API push: each private source is skipped with its reason, and none is stored', async () => {
    next += 1;
    const { access } = await tokenFor(next, `i4w${next}`, 'hub hub:configure', CLI_REDIRECT);
    const room = upstreamRoom('i4-push');
    const sources: HubConfiguration['sources'] = PRIVATE.map(([host], index) => ({
      source: {
        kind: 'mcp-http',
        namespace: `p${index}`,
        url: `http://${host}/mcp`,
        allowedHosts: [host],
        addedAt: 1,
        updatedAt: 1,
      },
      reviews: [],
      connections: [],
      policies: [],
    }));
    sources.push({
      source: {
        kind: 'openapi',
        namespace: 'api',
        document: room.documentUrl,
        url: room.base,
        allowedHosts: [new URL(room.base).host, '169.254.169.254'],
        addedAt: 1,
        updatedAt: 1,
      },
      reviews: [],
      connections: [],
      policies: [],
    });
    const request = {
      configuration: { format: CONFIGURATION_FORMAT, sources, profiles: [], skills: [] },
      secrets: {},
    };
    const send = async (path: string, body: unknown) => {
      const response = await call(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(200);
      return (await response.json()) as PlanAnswer;
    };
    const { plan, hash } = await send(HOSTED_PATHS.plan, request);
    for (const [index, [host, reason]] of PRIVATE.entries()) {
      const planned = plan.sources.find((s) => s.namespace === `p${index}`);
      expect(planned?.change, host).toBe('skip');
      expect(planned?.reason, host).toContain(`is a private address (${reason})`);
    }
    const api = plan.sources.find((s) => s.namespace === 'api');
    expect(api?.change).toBe('skip');
    expect(api?.reason).toContain('its allowed host 169.254.169.254 is a private address');
    await send(HOSTED_PATHS.apply, { ...request, planHash: hash });
    expect(await sourcesOf(`github:${next}`)).toEqual([]);
    expect(await room.calls()).toEqual([]);
  }, 60_000);
});

describe('I4 on the hosted hub: a run reaching out', () => {
  it('a stored source at each private form (from before the guard) is refused, not fetched', async () => {
    const { id, hub } = await person();
    for (const [index, [host]] of PRIVATE.entries()) {
      await reviewedSource(hub, `p${index}`, `http://${host}/mcp`, [
        { name: 'list_posts', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ]);
    }
    const client = await mcpClient((await tokenFor(id, `i4w${id}`)).access);
    try {
      const { envelope: run, text } = await execute(
        client,
        `const out = [];
         for (let i = 0; i < ${PRIVATE.length}; i++) {
           try { out.push({ answered: await globalThis['p' + i].list_posts({}) }); }
           catch (e) { out.push({ refused: String(e && e.message) }); }
         }
         return out;`,
      );
      expect(run.status, text).toBe('completed');
      const out = run.result as { refused?: string }[];
      for (const [index, [host, reason]] of PRIVATE.entries()) {
        expect(out[index]?.refused, host).toContain(
          `refused a request to a private address (${reason}): ${HOSTED}`,
        );
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('I4 on the hosted hub: an OpenAPI source on the room, added through the dashboard', () => {
  let room: UpstreamRoom;
  let client: Client;

  beforeAll(async () => {
    const { id, hub, post } = await person();
    room = upstreamRoom('i4-api');
    // Two MCP servers the person reviewed at the room's redirect (stored as a hub holds them).
    const other = `http://upstream.invariants.example${new URL(room.base).pathname}/stolen`;
    for (const [namespace, to] of [
      ['hop', 'http://127.0.0.1/mcp'],
      ['away', other],
    ] as const) {
      await reviewedSource(hub, namespace, `${room.base}/redirect?to=${encodeURIComponent(to)}`, [
        { name: 'list_posts', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      ]);
    }
    const review = await post('/sources/new', { kind: 'openapi', url: room.documentUrl });
    const html = await review.text();
    expect(review.status, alertOf(html)).toBe(200);
    const draft = /\/sources\/new\/(draft_[a-f0-9]+)\/confirm/.exec(html)?.[1] ?? '';
    const contracts = [...html.matchAll(/name="(contract:[^"]+)" value="([^"]+)"/g)].map(
      (m) => [m[1] ?? '', m[2] ?? ''] as const,
    );
    const confirmed = await post(`/sources/new/${draft}/confirm`, {
      namespace: 'room',
      choice: 'accept',
      key: KEY,
      ...Object.fromEntries(contracts),
    });
    expect(confirmed.status, alertOf(await confirmed.text())).toBe(303);
    client = await mcpClient((await tokenFor(id, `i4w${id}`)).access);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
  });

  it('a redirect to a private address, or an MCP server’s redirect, is not followed', async () => {
    const before = (await room.calls()).length;
    const targets = [
      ['http://127.0.0.1/stolen', 'refused a redirect to a private address (loopback)'],
      ['http://169.254.169.254/latest/meta-data/', 'refused a redirect to a private address (link-local'],
    ] as const;
    const { envelope: run, text } = await execute(
      client,
      `const out = [];
       for (const to of ${JSON.stringify(targets.map(([to]) => to))}) {
         try { out.push({ answered: await room.redirect({ to }) }); }
         catch (e) { out.push({ refused: String(e && e.message) }); }
       }
       for (const server of [hop, away]) {
         try { out.push({ answered: await server.list_posts({}) }); }
         catch (e) { out.push({ refused: String(e && e.message) }); }
       }
       return out;`,
    );
    expect(run.status, text).toBe('completed');
    const out = run.result as { refused?: string }[];
    for (const [index, [to, refused]] of targets.entries())
      expect(out[index]?.refused, to).toContain(refused);
    // The MCP servers behind a redirect: the same refusals on the Streamable HTTP road.
    expect(out[targets.length]?.refused).toContain('refused a redirect to a private address (loopback)');
    expect(out[targets.length + 1]?.refused).toContain('refused a redirect to another origin');
    // Each refused request reached the room once and went nowhere after it; no hop to `/stolen`.
    // An MCP server is asked twice: the hub lists its tools before the first call is decided
    // (engine/sources/contract-recheck.ts), then makes the call; each is refused at the redirect.
    // Two servers, two requests each.
    expect((await room.calls()).slice(before)).toEqual([
      ...targets.map(() => 'redirect /redirect'),
      ...Array.from({ length: 4 }, () => 'redirect /redirect'),
    ]);
    expect(text).not.toContain(KEY);
  }, 60_000);

  describeUpstreams({
    name: 'hosted',
    key: KEY,
    base: () => room.base,
    execute: (code) => execute(client, code),
    calls: () => room.calls(),
    keys: () => room.keys(),
    elsewhere: () => 'https://elsewhere.example',
    // No listener can stand at another origin in workerd: the room's count holds what reached it.
    elsewhereHeard: async () => [],
  });
});
