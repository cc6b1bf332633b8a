/**
 * Adding a source on a hub that refuses private places (the hosted hub's connector, here over a
 * real store in a temporary folder): a URL that names a private, loopback or link-local address
 * is refused when it is added, with the reason, before anything is sent; nothing is stored. A
 * public URL goes on to the network; the local hub's connector still reaches loopback.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { FetchLike } from '../../engine/connectors/guarded-fetch.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import type { Engine } from '../../engine/engine.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';
import { hubErrorOf } from '../hub-error.ts';
import { hubHome } from './cli-process.ts';

let remove: () => void;
let local: LocalStore;
let server: Server;
let port: number;
/** Requests that reached the loopback server. */
let hits: string[];
const connectors: SourceConnector[] = [];

beforeEach(async () => {
  let home: string;
  ({ home, remove } = hubHome());
  local = openLocalStore(join(home, 'hub.db'), Date.now());
  hits = [];
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterEach(async () => {
  await Promise.all(connectors.splice(0).map((c) => c.close()));
  await new Promise((done) => server.close(done));
  local.close();
  remove();
});

/** The engine over a connector, as a host builds it. */
function engine(connector: SourceConnector): Engine {
  connectors.push(connector);
  return engineWithoutSandbox({
    wording: connector.privateAddresses === 'refuse' ? hostedWording : localWording,
    store: local.store,
    connector,
    clock: { now: () => Date.now() },
    random: { bytes: (length) => crypto.getRandomValues(new Uint8Array(length)) },
  });
}

/** A hosted-like hub: the hosted wording, private places refused, and a network that records. */
function hostedLike(): { hub: Engine; asked: string[] } {
  const asked: string[] = [];
  const fetch: FetchLike = async (url) => {
    asked.push(String(url));
    throw new Error('fetch failed: this test has no public network');
  };
  const connector = new McpConnector({
    version: 'test',
    connectTimeoutMs: 5_000,
    wording: hostedWording,
    privateAddresses: 'refuse',
    fetch,
  });
  return { hub: engine(connector), asked };
}

describe('adding a source where private places are refused', () => {
  it('refuses a private URL at add time with the reason, sends nothing and stores nothing', async () => {
    const { hub, asked } = hostedLike();
    for (const [url, reason] of [
      [`http://127.0.0.1:${port}/mcp`, 'loopback'],
      [`http://localhost:${port}/mcp`, 'loopback (localhost)'],
      [`http://2130706433:${port}/mcp`, 'loopback'],
      ['http://169.254.169.254/latest/meta-data/', 'link-local (cloud metadata)'],
      ['http://10.0.0.5/mcp', 'private network'],
      ['http://[fd00::1]/mcp', 'unique local (private network)'],
    ] as const) {
      const e = await hubErrorOf(() => hub.sources.inspect({ kind: 'mcp-http', url }));
      expect(e.code, url).toBe('denied');
      expect(e.message).toContain(`cannot add a source at a private address (${reason})`);
      expect(e.message).toContain('reaches only servers on the public internet');
      expect(e.detail).toContain('ALLOW_PRIVATE_UPSTREAMS');
    }
    expect(asked).toEqual([]);
    expect(hits).toEqual([]);
    expect(local.store.listSources()).toEqual([]);
  });

  it('refuses a public URL whose allowed hosts name a private place', async () => {
    const { hub, asked } = hostedLike();
    const e = await hubErrorOf(() =>
      hub.sources.inspect({
        kind: 'mcp-http',
        url: 'https://mcp.example.com/mcp',
        allowedHosts: ['mcp.example.com', '169.254.169.254'],
      }),
    );
    expect(e.message).toContain('(link-local (cloud metadata))');
    expect(asked).toEqual([]);
  });

  it('lets a public URL through to the network', async () => {
    const { hub, asked } = hostedLike();
    const e = await hubErrorOf(() =>
      hub.sources.inspect({ kind: 'mcp-http', url: 'https://mcp.example.com/mcp' }),
    );
    expect(e.code).not.toBe('denied');
    expect(asked[0]).toBe('https://mcp.example.com/mcp');
  });

  it('refuses a stored private source when its tools are read (the guard, not only the add)', async () => {
    const { hub, asked } = hostedLike();
    const now = Date.now();
    local.store.addSource({
      kind: 'mcp-http',
      namespace: 'inside',
      url: `http://127.0.0.1:${port}/mcp`,
      allowedHosts: [`127.0.0.1:${port}`],
      addedAt: now,
      updatedAt: now,
    });
    const e = await hubErrorOf(() => hub.sources.refresh('inside'));
    expect(e.code).toBe('denied');
    expect(e.message).toContain('refused a request to a private address (loopback)');
    expect(asked).toEqual([]);
    expect(hits).toEqual([]);
  });
});

describe('the local hub', () => {
  it('still reaches a server on loopback', async () => {
    const hub = engine(localConnector({ version: 'test', connectTimeoutMs: 5_000 }));
    await hubErrorOf(() => hub.sources.inspect({ kind: 'mcp-http', url: `http://127.0.0.1:${port}/mcp` }));
    expect(hits.length).toBeGreaterThan(0);
  });
});
