/**
 * I4, "No way out" (spec: Security and approvals: "The sandbox has no network, no filesystem and
 * no secrets. Its only way out is the tool bridge, and every call through it passes policy").
 * Guest code run through MCP execute reaches no network and no host object.
 *
 * One local hub with the counting board added through the CLI; the official MCP client over stdio runs guest code through execute while a
 * loopback listener started by the test (node:http on 127.0.0.1) counts every connection:
 *
 * | Way in            | Attack                                                                     | Held                    |
 * | ----------------- | -------------------------------------------------------------------------- | ----------------------- |
 * | MCP execute code  | fetch, XMLHttpRequest, WebSocket, EventSource, require, process, import(), Function('return this'), constructor chains, WebAssembly, SharedArrayBuffer/Atomics, Deno/Bun/navigator | refused or absent; listener untouched |
 *
 * Also held by: test/node/sandbox.test.ts, test/node/sandbox-quickjs.test.ts,
 * test/node/quickjs-wire.test.ts, test/node/openapi-request.test.ts (allowlisted hosts, redirects,
 * response headers), test/node/sources-private.test.ts, test/workers/private-upstreams.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBoard, hubHome } from '../node/cli-process.ts';
import { stdioClient, textOf } from '../node/surface-fixture.ts';

let removeHome: () => void;
let client: Client;
let listener: Server;
let hits = 0;
let url = '';

beforeAll(async () => {
  listener = createServer((_req, res) => {
    res.end('reached');
  });
  listener.on('connection', () => {
    hits += 1;
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/`;
  const made = hubHome();
  removeHome = made.remove;
  const added = addBoard(made.home, join(made.home, 'count.txt'));
  expect(added.status, added.stderr).toBe(0);
  client = (await stdioClient(made.home, 'auto')).client;
}, 60_000);

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  removeHome?.();
});

const roads: [string, (target: string) => string][] = [
  ['fetch', (t) => `return await fetch(${JSON.stringify(t)})`],
  ['XMLHttpRequest', (t) => `const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(t)}); x.send()`],
  ['WebSocket', (t) => `return new WebSocket(${JSON.stringify(t.replace('http', 'ws'))})`],
  ['EventSource', (t) => `return new EventSource(${JSON.stringify(t)})`],
  ['require', (t) => `return require('node:http').get(${JSON.stringify(t)})`],
  ['process', () => `return process.binding('tcp_wrap')`],
  ['import()', (t) => `return await import('node:http').then((m) => m.get(${JSON.stringify(t)}))`],
  [
    'Function(return this)',
    (t) => `return Function('return this')().process.mainModule.require('http').get(${JSON.stringify(t)})`,
  ],
  ['constructor chain', (t) => `return [].constructor.constructor('return fetch')()(${JSON.stringify(t)})`],
  ['WebAssembly', () => `return WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))`],
  ['SharedArrayBuffer/Atomics', () => `return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)`],
  ['Deno/Bun/navigator', (t) => `return (Deno ?? Bun ?? navigator).fetch(${JSON.stringify(t)})`],
];

describe('I4: guest code has no way out', () => {
  it.each(roads)(
    '%s is refused or absent and the listener hears nothing',
    async (_name, code) => {
      const result = await client.callTool({ name: 'execute', arguments: { code: code(url) } });
      expect(textOf(result)).toMatch(/failed: .*(is not defined|is not available in the sandbox)/);
      expect(textOf(result)).not.toContain('reached');
      expect(hits).toBe(0);
    },
    60_000,
  );
});
