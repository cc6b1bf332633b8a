/**
 * `Sources.saveCredential` (engine/sources/save-credential.ts), what a connection holds after a secret is
 * stored: an OAuth sign-in is the connection's only credential (signing in drops a header key,
 * a header key drops the sign-in, and the dropped value leaves the secret store), while other
 * deliveries sit side by side (a query key and a header key of one API); and no secret of a
 * grant, each token on its own, is shorter than the hub keeps.
 */
import { describe, expect, it } from 'vitest';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { SecretRef } from '../../engine/contracts/connections.ts';
import { HubSecrets } from '../../engine/secrets/hub-secrets.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { type SecretStore, secretKey } from '../../engine/secrets/secret-store.ts';
import { Sources } from '../../engine/sources/sources.ts';
import { Upstream } from '../../engine/sources/upstream.ts';
import { cryptoRandom } from '../../engine/system.ts';
import { localWording } from '../../local/wording.ts';
import { hubErrorOf } from '../hub-error.ts';
import { boardStoreEach } from './board-store.ts';

const board = boardStoreEach('save-credential');

const grant: OAuthGrant = {
  access_token: 'at-0123456789abcdef',
  token_type: 'Bearer',
  refresh_token: 'rt-0123456789abcdef',
  authorization_server: 'https://auth.example',
  token_endpoint: 'https://auth.example/token',
  client_id: 'client-1',
};

const OAUTH = secretKey('board', 'default', 'oauth');
const BEARER = secretKey('board', 'default', 'Authorization');
const HEADER: SecretRef['delivery'] = { kind: 'header', name: 'Authorization', scheme: 'Bearer' };

/** Sources over the test's store, with an in-memory secret store the test reads. */
function hub() {
  const values = new Map<string, string>();
  const secrets: SecretStore = {
    where: 'a test store',
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
  const clock = { now: () => 1_000 };
  const hubSecrets = new HubSecrets({ store: board.store, secrets, clock });
  const connector: SourceConnector = {
    privateAddresses: 'allow',
    listTools: async () => ({ tools: [] }),
    callTool: async () => ({ content: [] }),
    onToolsChanged: () => {},
    health: () => undefined,
    close: async () => {},
  };
  const upstream = new Upstream({
    store: board.store,
    connector,
    secrets,
    clock,
    random: cryptoRandom,
    hubSecrets,
    wording: localWording,
  });
  const sources = new Sources({
    store: board.store,
    connector,
    secrets,
    clock,
    random: { bytes: (length) => crypto.getRandomValues(new Uint8Array(length)) },
    hubSecrets,
    upstream,
    wording: localWording,
  });
  return { sources, upstream, values };
}

const kinds = () => board.store.getConnection('board', 'default')?.secrets.map((ref) => ref.delivery.kind);

describe('an OAuth sign-in is the only credential of its connection', () => {
  it('signing in drops a header key the connection held, and deletes its value', async () => {
    const { sources, upstream, values } = hub();
    await sources.saveCredential('board', 'default', HEADER, 'sk-header-0123456789');
    await sources.saveCredential('board', 'default', { kind: 'oauth' }, JSON.stringify(grant));
    expect(kinds()).toEqual(['oauth']);
    expect(values.has(BEARER)).toBe(false);
    const credentials = await upstream.credentials('board');
    expect(credentials.headers).toEqual({ Authorization: `Bearer ${grant.access_token}` });
  });

  it('a header key entered for a signed-in connection drops the sign-in and its grant', async () => {
    const { sources, upstream, values } = hub();
    await sources.saveCredential('board', 'default', { kind: 'oauth' }, JSON.stringify(grant));
    await sources.saveCredential('board', 'default', HEADER, 'sk-header-0123456789');
    expect(kinds()).toEqual(['header']);
    expect(values.has(OAUTH)).toBe(false);
    const credentials = await upstream.credentials('board');
    expect(credentials.headers).toEqual({ Authorization: 'Bearer sk-header-0123456789' });
  });

  it('a query key and a header key of one connection stay side by side', async () => {
    const { sources, values } = hub();
    await sources.saveCredential('board', 'default', { kind: 'query', name: 'api_key' }, 'query-0123456789');
    await sources.saveCredential(
      'board',
      'default',
      { kind: 'header', name: 'X-Api-Key', scheme: '' },
      'header-0123456789',
    );
    expect(kinds()).toEqual(['query', 'header']);
    expect(values.size).toBe(2);
  });

  it('another connection of the source keeps its own credential', async () => {
    const { sources, values } = hub();
    await sources.saveCredential('board', 'work', HEADER, 'sk-work-0123456789');
    await sources.saveCredential('board', 'default', { kind: 'oauth' }, JSON.stringify(grant));
    expect(board.store.getConnection('board', 'work')?.secrets.map((ref) => ref.delivery.kind)).toEqual([
      'header',
    ]);
    expect(values.get(secretKey('board', 'work', 'Authorization'))).toBe('sk-work-0123456789');
  });
});

describe('a grant is kept only when each of its secrets is long enough', () => {
  const cases: [string, Partial<OAuthGrant>][] = [
    ['access token', { access_token: 'at-123' }],
    ['refresh token', { refresh_token: 'rt-123' }],
    ['client secret', { client_secret: 'cs-123' }],
  ];
  for (const [what, short] of cases) {
    it(`a ${what} shorter than the shortest secret kept is refused, and nothing is stored`, async () => {
      const { sources, values } = hub();
      const error = await hubErrorOf(() =>
        sources.saveCredential('board', 'default', { kind: 'oauth' }, JSON.stringify({ ...grant, ...short })),
      );
      expect(error.code).toBe('invalid_input');
      expect(error.message).toContain(
        `the sign-in's ${what} is shorter than 8 characters, short enough to be guessed; nothing was stored.`,
      );
      expect(error.message).not.toContain(Object.values(short)[0]);
      expect(values.size).toBe(0);
      expect(board.store.getConnection('board', 'default')).toBeUndefined();
    });
  }
});
