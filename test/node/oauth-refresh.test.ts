/**
 * Refreshing an OAuth connection at the moment of a request (engine/sources/oauth-refresh.ts,
 * through Upstream): concurrent requests share one refresh; the new grant is written back and
 * the connection's setAt moves (the fact, never the value); every token and the client secret is
 * scrubbed on its own, the replaced ones too; a refresh goes only to the token endpoint recorded
 * at sign-in (a redirect elsewhere is refused, nothing sent there); a refresh that fails says a
 * person must sign in again, in the host's words, naming no token.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { ManifestTool } from '../../engine/contracts/sources.ts';
import { HubError } from '../../engine/errors.ts';
import { HubSecrets } from '../../engine/secrets/hub-secrets.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { SignInNeeded } from '../../engine/sources/oauth-refresh.ts';
import { Upstream } from '../../engine/sources/upstream.ts';
import { cryptoRandom } from '../../engine/system.ts';
import { localWording } from '../../local/wording.ts';
import { boardStoreEach } from './board-store.ts';

const KEY = 'BOARD__DEFAULT__OAUTH';
const NOW = 1_000_000;

const board = boardStoreEach('oauth-refresh');
beforeEach(() => {
  board.store.putConnection({
    namespace: 'board',
    name: 'default',
    isDefault: true,
    secrets: [{ key: KEY, delivery: { kind: 'oauth' }, setAt: 1 }],
    createdAt: 0,
  });
});

const grant: OAuthGrant = {
  access_token: 'at-first-0123456789abcdef',
  token_type: 'Bearer',
  refresh_token: 'rt-first-0123456789abcdef',
  expires_at: NOW - 1,
  lifetime_ms: 3_600_000,
  authorization_server: 'https://auth.example',
  token_endpoint: 'https://auth.example/token',
  client_id: 'client-1',
  client_secret: 'client-secret-0123456789abcdef',
  resource: 'https://board.example/mcp',
};

/** The hub's engine parts around one OAuth connection, with a network double for the token endpoint. */
function hub(
  answer: (url: string, body: URLSearchParams) => Response | Promise<Response>,
  callTool: SourceConnector['callTool'] = async () => ({ content: [] }),
) {
  const values = new Map([[KEY, JSON.stringify(grant)]]);
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
  const clock = { now: () => NOW };
  const hubSecrets = new HubSecrets({ store: board.store, secrets, clock });
  const sent: { url: string; body: URLSearchParams }[] = [];
  const connector: SourceConnector = {
    privateAddresses: 'allow',
    listTools: async () => ({ tools: [] }),
    callTool,
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
    fetch: async (url: string | URL, init?: RequestInit) => {
      const body = new URLSearchParams(String(init?.body ?? ''));
      sent.push({ url: String(url), body });
      return answer(String(url), body);
    },
  });
  return { upstream, values, sent, hubSecrets };
}

const tokens = (n: number) =>
  Response.json({
    access_token: `at-${n}-0123456789abcdef`,
    token_type: 'Bearer',
    expires_in: 3600,
    refresh_token: `rt-${n}-0123456789abcdef`,
  });

describe('an OAuth connection at the moment of a request', () => {
  it('an expired token is refreshed once for concurrent requests, written back, recorded, and every token scrubbed', async () => {
    let n = 0;
    const { upstream, values, sent, hubSecrets } = hub(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return tokens(++n);
    });
    const [a, b] = await Promise.all([upstream.credentials('board'), upstream.credentials('board')]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('https://auth.example/token');
    expect(sent[0]?.body.get('grant_type')).toBe('refresh_token');
    expect(sent[0]?.body.get('refresh_token')).toBe(grant.refresh_token);
    expect(sent[0]?.body.get('resource')).toBe('https://board.example/mcp');
    expect(a.headers).toEqual({ Authorization: 'Bearer at-1-0123456789abcdef' });
    expect(b.headers).toEqual(a.headers);

    const kept = JSON.parse(values.get(KEY) ?? '{}') as OAuthGrant;
    expect(kept).toMatchObject({
      access_token: 'at-1-0123456789abcdef',
      refresh_token: 'rt-1-0123456789abcdef',
      expires_at: NOW + 3_600_000,
      token_endpoint: grant.token_endpoint,
      client_secret: grant.client_secret,
    });
    const ref = board.store.getConnection('board', 'default')?.secrets[0];
    expect(ref).toEqual({ key: KEY, delivery: { kind: 'oauth' }, setAt: NOW });

    // A fresh token is used as it is: nothing more is sent.
    await upstream.credentials('board');
    expect(sent).toHaveLength(1);

    await hubSecrets.refresh();
    const text = [
      'at-1-0123456789abcdef',
      'rt-1-0123456789abcdef',
      grant.client_secret,
      grant.access_token,
      grant.refresh_token,
    ].join(' ');
    expect(hubSecrets.scrubber.text(text)).toBe(Array(5).fill(SCRUBBED).join(' '));
  });

  it('another process refreshed first (a rotated refresh token is refused once used): its grant is used', async () => {
    const theirs = { ...grant, access_token: 'at-theirs-0123456789abcdef', expires_at: NOW + 3_600_000 };
    const { upstream, values, hubSecrets } = hub(() => {
      values.set(KEY, JSON.stringify(theirs));
      return Response.json({ error: 'invalid_grant' }, { status: 400 });
    });
    expect((await upstream.credentials('board')).headers).toEqual({
      Authorization: `Bearer ${theirs.access_token}`,
    });
    expect(hubSecrets.scrubber.text(theirs.access_token)).toBe(SCRUBBED);
  });

  it('a refresh goes only to the recorded token endpoint: a redirect elsewhere is refused, and nothing is sent there', async () => {
    const { upstream, sent } = hub((url) =>
      url === 'https://auth.example/token'
        ? new Response(null, { status: 307, headers: { location: 'https://evil.example/token' } })
        : tokens(9),
    );
    const error = await upstream.credentials('board').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInNeeded);
    expect(sent.map((s) => s.url)).toEqual(['https://auth.example/token']);
  });

  it('a revoked grant: a person must sign in again, in the host’s words, and no token is named', async () => {
    const { upstream, values } = hub(() =>
      Response.json(
        { error: 'invalid_grant', error_description: 'the refresh token is not valid' },
        { status: 400 },
      ),
    );
    const error = await upstream.credentials('board').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInNeeded);
    const message = (error as Error).message;
    expect(message).toBe(
      'the sign-in of connection "board/default" no longer works (the authorization server no longer accepts the grant: it was revoked or expired); nothing was sent to the source. A person must sign in again: `capabilities hub auth board`.',
    );
    expect(JSON.parse(values.get(KEY) ?? '{}')).toEqual(grant);
  });

  it('a source moved to another origin since its sign-in gets no token: sign in again', async () => {
    const { upstream, values, sent } = hub(() => tokens(1));
    const fresh = { ...grant, expires_at: NOW + 3_600_000, issued_for: 'https://board.example' };
    values.set(KEY, JSON.stringify(fresh));
    expect((await upstream.credentials('board')).headers).toEqual({
      Authorization: `Bearer ${grant.access_token}`,
    });
    const source = board.store.getSource('board');
    if (source?.kind !== 'mcp-http') throw new Error('no board');
    board.store.updateSource({
      ...source,
      url: 'https://elsewhere.example/mcp',
      allowedHosts: ['elsewhere.example'],
    });
    const error = await upstream.credentials('board').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInNeeded);
    expect((error as Error).message).toContain(
      'it was made for another address than the one the source is at now',
    );
    expect(sent).toEqual([]);
  });

  it('a token endpoint that does not answer, or answers garbage, is the same: sign in again', async () => {
    for (const answer of [
      () => {
        throw new TypeError('fetch failed');
      },
      () => new Response('<html>Service Unavailable</html>', { headers: { 'content-type': 'text/html' } }),
    ]) {
      const { upstream } = hub(answer);
      const error = await upstream.credentials('board').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignInNeeded);
      expect((error as Error).message).not.toContain(grant.refresh_token);
    }
  });
  it('a person signed in again while the token was refreshed: their grant stays, and is used', async () => {
    const signedIn = { ...grant, access_token: 'at-signed-in-0123456789abcdef', expires_at: NOW + 3_600_000 };
    const { upstream, values } = hub(() => {
      values.set(KEY, JSON.stringify(signedIn));
      return tokens(1);
    });
    expect((await upstream.credentials('board')).headers).toEqual({
      Authorization: `Bearer ${signedIn.access_token}`,
    });
    expect(JSON.parse(values.get(KEY) ?? '{}')).toEqual(signedIn);
    expect(board.store.getConnection('board', 'default')?.secrets[0]?.setAt).toBe(1);
  });

  it('the source was removed while the token was refreshed: nothing is written, the connection is not recreated', async () => {
    const { upstream, values } = hub(() => {
      board.store.removeConnection('board', 'default');
      values.delete(KEY);
      return tokens(1);
    });
    const error = await upstream.credentials('board').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignInNeeded);
    expect(values.has(KEY)).toBe(false);
    expect(board.store.getConnection('board', 'default')).toBeUndefined();
  });

  it('a token the source refused is refreshed before it is sent again, without rewriting the stored grant', async () => {
    const fresh = { ...grant, expires_at: NOW + 3_600_000 };
    const { upstream, values, sent } = hub(
      () => tokens(1),
      async () => {
        throw new HubError('unauthorized', 'the source answered 401');
      },
    );
    values.set(KEY, JSON.stringify(fresh));
    const tool: ManifestTool = {
      address: 'board.list_posts',
      name: 'list_posts',
      inputSchema: { type: 'object' },
      contract: '0'.repeat(64),
    };
    const outcome = await upstream.callTool('board.list_posts', {}, { tool });
    expect(outcome.ok).toBe(false);
    expect(JSON.parse(values.get(KEY) ?? '{}')).toEqual(fresh);
    expect(sent).toHaveLength(0);
    expect((await upstream.credentials('board')).headers).toEqual({
      Authorization: 'Bearer at-1-0123456789abcdef',
    });
    expect(sent).toHaveLength(1);
  });
  it('a grant missing from the secret store, or one that cannot be read, is a sign-in to make again', async () => {
    for (const kept of [undefined, '{"not":"a grant"}']) {
      const { upstream, values, sent } = hub(() => tokens(1));
      if (kept === undefined) values.delete(KEY);
      else values.set(KEY, kept);
      const error = await upstream.credentials('board').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignInNeeded);
      expect((error as Error).message).toContain(
        'A person must sign in again: `capabilities hub auth board`.',
      );
      expect(sent).toEqual([]);
    }
  });
});
