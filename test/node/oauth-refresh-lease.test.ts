/**
 * The refresh lease across processes (engine/sources/refresh-lease.ts): two refreshers, each
 * with its own connection to one hub.db and its own view of one .env secret file (as two
 * processes serving one local hub have), against a loopback token endpoint whose refresh tokens
 * rotate (a used one is refused). Refreshing at once sends one token request, and both use the
 * grant it brought back; a lease left by a process that died is taken over when it expires; a
 * connection removed while a process waits ends the wait, with nothing sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { Clock } from '../../engine/ports.ts';
import { HubSecrets } from '../../engine/secrets/hub-secrets.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { SignInNeeded } from '../../engine/sources/oauth-refresh.ts';
import { Upstream } from '../../engine/sources/upstream.ts';
import { cryptoRandom } from '../../engine/system.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localWording } from '../../local/wording.ts';

const KEY = 'BOARD__DEFAULT__OAUTH';
const NOW = 1_000_000;

/** A token endpoint on loopback whose refresh tokens rotate: each works once. */
interface TokenEndpoint {
  url: string;
  /** Refresh requests received, refused ones too. */
  requests: number;
  close(): Promise<void>;
}

async function startTokenEndpoint(): Promise<TokenEndpoint> {
  const live = new Set(['rt-0-0123456789abcdef']);
  let issued = 0;
  const endpoint = { url: '', requests: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      endpoint.requests++;
      const form = new URLSearchParams(body);
      const token = form.get('refresh_token') ?? '';
      response.setHeader('content-type', 'application/json');
      if (form.get('grant_type') !== 'refresh_token' || !live.delete(token)) {
        response.statusCode = 400;
        response.end(
          JSON.stringify({ error: 'invalid_grant', error_description: 'the refresh token is not valid' }),
        );
        return;
      }
      const n = ++issued;
      live.add(`rt-${n}-0123456789abcdef`);
      // A token endpoint takes a moment: long enough for the other process to want one too.
      setTimeout(() => {
        response.end(
          JSON.stringify({
            access_token: `at-${n}-0123456789abcdef`,
            token_type: 'Bearer',
            expires_in: 3600,
            refresh_token: `rt-${n}-0123456789abcdef`,
          }),
        );
      }, 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = () => new Promise((resolve) => server.close(() => resolve()));
  return endpoint;
}

let dir: string;
let endpoint: TokenEndpoint;
const stores: LocalStore[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-refresh-lease-'));
  endpoint = await startTokenEndpoint();
  const first = hubStore();
  first.store.addSource({
    kind: 'mcp-http',
    namespace: 'board',
    url: 'https://board.example/mcp',
    allowedHosts: ['board.example'],
    addedAt: 0,
    updatedAt: 0,
  });
  first.store.putConnection({
    namespace: 'board',
    name: 'default',
    isDefault: true,
    secrets: [{ key: KEY, delivery: { kind: 'oauth' }, setAt: 1 }],
    createdAt: 0,
  });
  await secretFile().set(KEY, JSON.stringify(grant()));
});
afterEach(async () => {
  for (const local of stores.splice(0)) local.close();
  await endpoint.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One process's connection to the hub's store. */
function hubStore(): LocalStore {
  const local = openLocalStore(join(dir, 'hub.db'), 0);
  stores.push(local);
  return local;
}

/** One process's view of the hub's secret file (it reads the file on every get). */
const secretFile = () => new EnvFileSecretStore(join(dir, '.env'));

function grant(): OAuthGrant {
  return {
    access_token: 'at-0-0123456789abcdef',
    token_type: 'Bearer',
    refresh_token: 'rt-0-0123456789abcdef',
    expires_at: NOW - 1,
    lifetime_ms: 3_600_000,
    authorization_server: endpoint.url,
    token_endpoint: `${endpoint.url}/token`,
    client_id: 'client-1',
    resource: 'https://board.example/mcp',
  };
}

/**
 * One process serving the hub: its own store connection, secret file view and refresher.
 * `onRead` sees every read of the secret file, numbered from 1.
 */
function process(clock: Clock = { now: () => NOW }, onRead?: (n: number) => void) {
  const local = hubStore();
  const file = secretFile();
  let reads = 0;
  const secrets: SecretStore = {
    where: file.where,
    get: (key) => {
      onRead?.(++reads);
      return file.get(key);
    },
    set: (key, value) => file.set(key, value),
    delete: (key) => file.delete(key),
  };
  const hubSecrets = new HubSecrets({ store: local.store, secrets, clock });
  const connector: SourceConnector = {
    privateAddresses: 'allow',
    listTools: async () => ({ tools: [] }),
    callTool: async () => ({ content: [] }),
    onToolsChanged: () => {},
    health: () => undefined,
    close: async () => {},
  };
  const upstream = new Upstream({
    store: local.store,
    connector,
    secrets,
    clock,
    random: cryptoRandom,
    hubSecrets,
    wording: localWording,
  });
  return { upstream, store: local.store, secrets };
}

const stored = async () => JSON.parse((await secretFile().get(KEY)) ?? '{}') as OAuthGrant;

describe('the refresh lease between the processes serving one hub', () => {
  it('two processes refreshing at once send one token request, and both use the grant it brought', async () => {
    const one = process();
    const two = process();
    const [a, b] = await Promise.all([one.upstream.credentials('board'), two.upstream.credentials('board')]);
    expect(endpoint.requests).toBe(1);
    expect(a.headers).toEqual({ Authorization: 'Bearer at-1-0123456789abcdef' });
    expect(b.headers).toEqual(a.headers);
    expect(await stored()).toMatchObject({
      access_token: 'at-1-0123456789abcdef',
      refresh_token: 'rt-1-0123456789abcdef',
    });
    expect(one.store.getConnection('board', 'default')?.secrets[0]?.setAt).toBe(NOW);
    // The lease was let go: anyone may take it now.
    expect(one.store.takeRefreshLease({ key: KEY, holder: 'someone', expiresAt: NOW + 1 }, NOW)).toBe(true);

    // A second round, once the new token is due, rotates again: still one request.
    const later = NOW + 3_600_000;
    const three = process({ now: () => later });
    const four = process({ now: () => later });
    three.store.releaseRefreshLease(KEY, 'someone');
    const [c, d] = await Promise.all([
      three.upstream.credentials('board'),
      four.upstream.credentials('board'),
    ]);
    expect(endpoint.requests).toBe(2);
    expect(c.headers).toEqual({ Authorization: 'Bearer at-2-0123456789abcdef' });
    expect(d.headers).toEqual(c.headers);
  });

  it('a lease left by a process that died is taken over once it expires, and the refresh is made', async () => {
    const dead = hubStore();
    expect(
      dead.store.takeRefreshLease({ key: KEY, holder: 'refresher_dead', expiresAt: NOW + 1_000 }, NOW),
    ).toBe(true);
    // Time goes on while the process waits: every look at the clock is a quarter second later.
    let now = NOW;
    const waiting = process({ now: () => (now += 250) });
    const credentials = await waiting.upstream.credentials('board');
    expect(credentials.headers).toEqual({ Authorization: 'Bearer at-1-0123456789abcdef' });
    expect(endpoint.requests).toBe(1);
    expect((await stored()).access_token).toBe('at-1-0123456789abcdef');
    expect(dead.store.takeRefreshLease({ key: KEY, holder: 'refresher_dead', expiresAt: now + 1 }, now)).toBe(
      true,
    );
  });

  it('a connection removed while a process waits for the lease ends the wait: sign in again, nothing sent', async () => {
    const holder = hubStore();
    expect(
      holder.store.takeRefreshLease({ key: KEY, holder: 'refresher_other', expiresAt: NOW + 30_000 }, NOW),
    ).toBe(true);
    // The first read is the call's own; the second, the waiting process looking for a new grant.
    const waiting = process(undefined, (n) => {
      if (n === 2) holder.store.removeConnection('board', 'default');
    });
    const error = await waiting.upstream.credentials('board').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInNeeded);
    expect((error as Error).message).toContain('the connection was removed while its token was refreshed');
    expect(endpoint.requests).toBe(0);
  });
});
