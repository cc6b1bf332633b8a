/**
 * I4 (test/invariants/i4-upstreams.suite.ts) on a local hub: the upstream stand-in
 * (test/fixtures/upstream-standin-server.ts) on 127.0.0.1, its room's OpenAPI document added
 * through the real CLI (`hub add <document> --server … --yes`, the API key typed on standard
 * input), and a second listener on another loopback port (another origin) that records every
 * request. What the stand-in heard under another Host header counts as heard elsewhere too. The
 * official MCP client over stdio runs guest code through execute.
 *
 * Also held by: test/node/openapi-request.test.ts (buildRequest encodes path arguments and
 * refuses dot segments; callResult's header allowlist), test/node/openapi-server.test.ts (server
 * URLs refused at add), test/node/sources-private.test.ts and test/workers/private-upstreams.test.ts
 * (private places refused on the hosted hub), test/node/openapi-cli.test.ts (the key reaches only
 * the API), test/invariants/i4-no-way-out.test.ts (guest code has no network of its own).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { type RunningUpstreamStandIn, startUpstreamStandIn } from '../fixtures/upstream-standin-server.ts';
import { BIN, cliEnv, collected, hubHome } from '../node/cli-process.ts';
import { stdioClient } from '../node/surface-fixture.ts';
import { describeUpstreams } from './i4-upstreams.suite.ts';

const KEY = 'i4-upstream-key-5c1e9a77b0d2';
const ROOM = 'i4-local';

let removeHome: () => void;
let client: Client;
let upstream: RunningUpstreamStandIn;
let other: Server;
let elsewhere = '';
/** What reached anything but the room as addressed: the other listener, or the room under another Host. */
const elsewhereHeard: string[] = [];

beforeAll(async () => {
  other = createServer((req, res) => {
    elsewhereHeard.push(`${req.method} ${req.headers.host}${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"reached":"the other origin"}');
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  upstream = await startUpstreamStandIn((request) => {
    const url = new URL(request.url);
    if (request.headers.get('host') !== new URL(upstream.url).host)
      elsewhereHeard.push(`${request.method} ${request.headers.get('host')}${url.pathname}`);
  });
  const made = hubHome();
  removeHome = made.remove;
  const base = `${upstream.url}/${ROOM}`;
  const add = spawn(
    BIN,
    ['--json', 'hub', 'add', `${base}/openapi.json`, '--server', base, '--namespace', 'room', '--yes'],
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
  await upstream?.close();
  await new Promise((done) => other?.close(done));
  removeHome?.();
});

/** What the room counted, and the key each of its API's requests carried. */
const counted = async () =>
  (await (await fetch(`${upstream.url}/${ROOM}/calls`)).json()) as { calls: string[]; keys: string[] };

describeUpstreams({
  name: 'local',
  key: KEY,
  base: () => `${upstream.url}/${ROOM}`,
  execute: async (code) => {
    const answer = await client.callTool({ name: 'execute', arguments: { code } });
    return { envelope: answer.structuredContent as ExecuteEnvelope, text: JSON.stringify(answer) };
  },
  calls: async () => (await counted()).calls,
  keys: async () => (await counted()).keys,
  elsewhere: () => elsewhere,
  elsewhereHeard: async () => [...elsewhereHeard],
});
