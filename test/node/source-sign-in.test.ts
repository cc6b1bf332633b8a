/**
 * The hosted hub's sign-in to a source that asks for OAuth (engine/sources/source-sign-in.ts),
 * against the OAuth-protected board and its authorization server on loopback
 * (test/fixtures/oauth-board-server.ts): discovery from the 401, dynamic registration for the
 * hub's own callback, PKCE, and a `state` that finishes one sign-in, once, for the person who
 * started it, within its lifetime. A replayed state, another person's, an expired one, a denial:
 * each is refused before any code is redeemed. The pending sign-in is kept under the state's
 * hash, never the state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TakingSecretStore } from '../../engine/secrets/secret-store.ts';
import { SIGN_IN_LIFETIME_MS, SourceSignIns } from '../../engine/sources/source-sign-in.ts';
import { cryptoRandom } from '../../engine/system.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';

const CALLBACK = 'https://hub.example/sources/oauth/callback';

class MemorySecrets implements TakingSecretStore {
  readonly where = 'memory';
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
  async take(key: string) {
    const value = this.values.get(key);
    this.values.delete(key);
    return value;
  }
  keysStartingWith(prefix: string) {
    return [...this.values.keys()].filter((key) => key.startsWith(prefix));
  }
}

let board: OAuthBoard;
beforeAll(async () => {
  board = await startOAuthBoard();
});
afterAll(() => board?.close());

function hub(privateAddresses: 'allow' | 'refuse' = 'allow') {
  const secrets = new MemorySecrets();
  const clock = { at: Date.now(), now: () => clock.at };
  const signIns = new SourceSignIns({
    secrets,
    clock,
    random: cryptoRandom,
    privateAddresses,
    clientName: 'capabilities hub',
  });
  return { secrets, clock, signIns };
}

/** Starts a sign-in as `who` and lets the person allow (or deny): the callback's query. */
async function signIn(h: ReturnType<typeof hub>, who: string, choice: 'allow' | 'deny' = 'allow') {
  const to = await h.signIns.start({ url: board.url, who, purpose: { kind: 'add' }, redirectUrl: CALLBACK });
  const back = new URL(await board.decide(to, choice));
  const q = (name: string) => back.searchParams.get(name) ?? undefined;
  return {
    to: new URL(to),
    back,
    answer: { state: q('state'), code: q('code'), iss: q('iss'), error: q('error') },
  };
}

describe('signing the hub in to a source from its pages', () => {
  it('discovers, registers for the callback, uses PKCE, and redeems the code for a grant', async () => {
    const h = hub();
    const { to, back, answer } = await signIn(h, 'github:ana');
    expect(to.origin).toBe(board.issuer);
    expect(to.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(back.origin + back.pathname).toBe(CALLBACK);
    const state = answer.state ?? '';
    expect(state).toMatch(/^signin_[0-9a-f]{48}$/);
    // Kept under the state's hash, never the state itself.
    expect([...h.secrets.values.keys()].join()).not.toContain(state.slice(7));
    expect([...h.secrets.values.values()].join()).not.toContain(state);
    const finished = await h.signIns.finish({ ...answer, who: 'github:ana' });
    expect(finished.purpose).toEqual({ kind: 'add' });
    expect(finished.url).toBe(board.url);
    expect(finished.grant.access_token).toBe(board.accessTokens.at(-1));
    expect(finished.grant.refresh_token).toBe(board.refreshTokens.at(-1));
    expect(finished.grant.issued_for).toBe(new URL(board.url).origin);
    expect(finished.grant.token_endpoint).toBe(`${board.issuer}/token`);
    expect(board.accepts(`Bearer ${finished.grant.access_token}`)).toBe(true);
    // Taken once: nothing waits any more.
    expect(h.secrets.values.size).toBe(0);
  });

  it('refuses a state used already (a replay)', async () => {
    const h = hub();
    const { answer } = await signIn(h, 'github:ana');
    await h.signIns.finish({ ...answer, who: 'github:ana' });
    const issued = board.issued.authorization_code;
    await expect(h.signIns.finish({ ...answer, who: 'github:ana' })).rejects.toThrow(
      /No sign-in of yours waits/,
    );
    expect(board.issued.authorization_code).toBe(issued);
  });

  it('of two callbacks with one state at once, one finishes', async () => {
    const h = hub();
    const { answer } = await signIn(h, 'github:ana');
    const both = await Promise.allSettled([
      h.signIns.finish({ ...answer, who: 'github:ana' }),
      h.signIns.finish({ ...answer, who: 'github:ana' }),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses a state another person started, and it is spent for both', async () => {
    const h = hub();
    const { answer } = await signIn(h, 'github:ana');
    const issued = board.issued.authorization_code;
    await expect(h.signIns.finish({ ...answer, who: 'github:bo' })).rejects.toThrow(
      /No sign-in of yours waits/,
    );
    await expect(h.signIns.finish({ ...answer, who: 'github:ana' })).rejects.toThrow(/No sign-in of yours/);
    expect(board.issued.authorization_code).toBe(issued);
  });

  it('refuses a state past its lifetime, and a made-up one', async () => {
    const h = hub();
    const { answer } = await signIn(h, 'github:ana');
    h.clock.at += SIGN_IN_LIFETIME_MS;
    await expect(h.signIns.finish({ ...answer, who: 'github:ana' })).rejects.toThrow(/No sign-in of yours/);
    await expect(
      h.signIns.finish({ state: `signin_${'0'.repeat(48)}`, code: 'x', who: 'github:ana' }),
    ).rejects.toThrow(/No sign-in of yours/);
    await expect(h.signIns.finish({ state: undefined, code: 'x', who: 'github:ana' })).rejects.toThrow(
      /No sign-in of yours/,
    );
  });

  it('says the sign-in was not completed when the person denies', async () => {
    const h = hub();
    const { answer } = await signIn(h, 'github:ana', 'deny');
    await expect(h.signIns.finish({ ...answer, who: 'github:ana' })).rejects.toThrow(
      /was not completed \(access_denied\)/,
    );
  });

  it('signs in as its client ID metadata document where the server reads one and has no registration', async () => {
    const issuer = 'https://auth.cimd.example';
    const asked: string[] = [];
    const fetch = async (input: string | URL) => {
      const url = new URL(String(input));
      asked.push(url.pathname);
      if (url.pathname === '/mcp') return new Response('sign in', { status: 401 });
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
        return Response.json({ resource: 'https://cimd.example/mcp', authorization_servers: [issuer] });
      if (url.pathname === '/.well-known/oauth-authorization-server')
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          client_id_metadata_document_supported: true,
        });
      return new Response('not found', { status: 404 });
    };
    const signIns = new SourceSignIns({
      secrets: new MemorySecrets(),
      clock: { now: () => 0 },
      random: cryptoRandom,
      clientName: 'capabilities hub',
      fetch,
    });
    const document = 'https://hub.example/sources/oauth/client.json';
    const to = new URL(
      await signIns.start({
        url: 'https://cimd.example/mcp',
        who: 'github:ana',
        purpose: { kind: 'add' },
        redirectUrl: CALLBACK,
        clientMetadataUrl: document,
      }),
    );
    expect(to.origin + to.pathname).toBe(`${issuer}/authorize`);
    expect(to.searchParams.get('client_id')).toBe(document);
    expect(asked).not.toContain('/register');
    // Without a document to offer (no https URL), it says why it cannot sign in.
    await expect(
      signIns.start({
        url: 'https://cimd.example/mcp',
        who: 'github:ana',
        purpose: { kind: 'add' },
        redirectUrl: CALLBACK,
      }),
    ).rejects.toThrow(/neither registers clients on its own/);
  });

  it('sweeps the sign-ins left waiting past their lifetime, and only those', async () => {
    const h = hub();
    await h.signIns.start({
      url: board.url,
      who: 'github:ana',
      purpose: { kind: 'add' },
      redirectUrl: CALLBACK,
    });
    // A connection's secret, even of a source named like the sign-ins, is never swept.
    h.secrets.values.set('BOARD__DEFAULT__OAUTH', 'a connection’s grant, not a sign-in');
    h.secrets.values.set('OAUTH_SIGN_IN__DEFAULT__OAUTH', 'a connection’s grant, not a sign-in');
    expect(await h.signIns.sweep()).toBe(0);
    h.clock.at += SIGN_IN_LIFETIME_MS / 2;
    await h.signIns.start({
      url: board.url,
      who: 'github:ana',
      purpose: { kind: 'add' },
      redirectUrl: CALLBACK,
    });
    h.clock.at += SIGN_IN_LIFETIME_MS / 2;
    expect(await h.signIns.sweep()).toBe(1);
    expect([...h.secrets.values.keys()].filter((k) => k.startsWith('oauth-sign-in:'))).toHaveLength(1);
    expect(h.secrets.values.has('BOARD__DEFAULT__OAUTH')).toBe(true);
    expect(h.secrets.values.has('OAUTH_SIGN_IN__DEFAULT__OAUTH')).toBe(true);
  });

  it('reaches no private address where the host refuses them', async () => {
    const h = hub('refuse');
    const before = board.authorizations.length;
    await expect(
      h.signIns.start({ url: board.url, who: 'github:ana', purpose: { kind: 'add' }, redirectUrl: CALLBACK }),
    ).rejects.toThrow(/private address/);
    expect(board.authorizations.length).toBe(before);
  });
});
