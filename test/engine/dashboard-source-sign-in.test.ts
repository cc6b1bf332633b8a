/**
 * The dashboard's sign-in to a source that asks for OAuth (dashboard/source-sign-in-routes.tsx),
 * on the engine's real SourceSignIns against the OAuth-protected board on loopback, without a
 * browser or workerd (the end to end under `wrangler dev` is test/e2e/hosted-source-sign-in.test.ts):
 * Add a source of the board leads to a page that links to its authorization server; the callback
 * makes the grant a draft whose Confirm keeps it as the default connection; Sign in again replaces
 * the grant; a callback refused says so and keeps nothing; a run's approval session reaches none of it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { PageSession } from '../../dashboard/session.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { secretKey, type TakingSecretStore } from '../../engine/secrets/secret-store.ts';
import { SourceSignIns } from '../../engine/sources/source-sign-in.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { CSRF, reviewOf, World } from './dashboard-add-world.ts';

const KEY = secretKey('board', 'default', 'oauth');

class SignInWorld extends World {
  readonly signIns = new SourceSignIns({
    secrets: this.#taking(),
    clock: { now: () => this.now },
    random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    clientName: 'capabilities hub',
  });

  #taking(): TakingSecretStore {
    return {
      where: 'this test',
      get: async (key) => this.held.get(key),
      set: async (key, value) => void this.held.set(key, value),
      delete: async (key) => void this.held.delete(key),
      take: async (key) => {
        const value = this.held.get(key);
        this.held.delete(key);
        return value;
      },
      keysStartingWith: (prefix) => [...this.held.keys()].filter((key) => key.startsWith(prefix)),
    };
  }

  override app(scope: PageTarget = { kind: 'dashboard' }) {
    const session: PageSession = { who: 'ana', csrf: CSRF, scope };
    return createDashboard({
      desk: this.engine.desk,
      clock: { now: () => this.now },
      review: this.engine.sources,
      adding: this.engine.drafts,
      signIns: this.signIns,
      wording: this.engine.wording,
      session: async (c, next) => {
        c.set('session', session);
        await next();
      },
    });
  }

  /** The link of the page before the authorization server, as the person follows it. */
  static linkOf(html: string): string {
    const href = /<a href="([^"]+)">Continue to/.exec(html)?.[1];
    if (!href) throw new Error(`no link to sign in: ${html.slice(-600)}`);
    return href.replaceAll('&amp;', '&');
  }
}

let board: OAuthBoard;
let world: SignInWorld;
beforeAll(async () => {
  board = await startOAuthBoard();
});
afterAll(() => board?.close());
beforeEach(() => {
  world = new SignInWorld();
});
afterEach(() => world.close());

/** The person allows at the board: the callback's path and query, as the browser comes back. */
async function allowed(html: string): Promise<string> {
  const back = new URL(await board.decide(SignInWorld.linkOf(html), 'allow'));
  return back.pathname + back.search;
}

const kept = () => {
  const value = world.held.get(KEY);
  return value === undefined ? undefined : OAuthGrant.parse(JSON.parse(value));
};

describe('signing in to a source from the dashboard', () => {
  it('Add a source of a server that asks for a sign-in: the link, the callback, the review, the grant kept', async () => {
    const asked = await world.request('/sources/new', { csrf: CSRF, kind: 'mcp-http', url: board.url });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain(`Sign in to ${new URL(board.url).origin}`);
    const link = new URL(SignInWorld.linkOf(asked.html));
    expect(link.origin).toBe(board.issuer);
    expect(link.searchParams.get('redirect_uri')).toBe('http://localhost/sources/oauth/callback');
    const callback = await world.request(await allowed(asked.html));
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/^\/sources\/new\/draft_[0-9a-f]+$/);
    const review = await world.request(callback.location ?? '');
    expect(review.html).toContain('your sign-in (OAuth), for the default connection');
    const { id, namespace, contracts } = reviewOf(review.html);
    const confirmed = await world.request(`/sources/new/${id}/confirm`, {
      csrf: CSRF,
      namespace,
      choice: 'accept',
      ...contracts,
    });
    expect(confirmed.status).toBe(303);
    expect(world.local.store.getConnection('board', 'default')?.secrets[0]?.delivery).toEqual({
      kind: 'oauth',
    });
    expect(kept()?.access_token).toBe(board.accessTokens.at(-1));
    for (const page of world.pages) {
      for (const token of [...board.accessTokens, ...board.refreshTokens]) expect(page).not.toContain(token);
    }
    // The page of the source offers Sign in again; it replaces the grant.
    const source = await world.request('/sources/board');
    expect(source.html).toContain('Sign in again');
    const again = await world.request('/sources/board/sign-in', { csrf: CSRF, connection: 'default' });
    const mended = await world.request(await allowed(again.html));
    expect(mended).toMatchObject({ status: 303, location: '/sources/board' });
    expect(kept()?.access_token).toBe(board.accessTokens.at(-1));
  });

  it('a refused callback says so and keeps nothing; a run’s approval session reaches none of it', async () => {
    const asked = await world.request('/sources/new', { csrf: CSRF, kind: 'mcp-http', url: board.url });
    const denied = new URL(await board.decide(SignInWorld.linkOf(asked.html), 'deny'));
    const page = await world.request(denied.pathname + denied.search);
    expect(page.status).toBe(400);
    expect(page.html).toContain('was not completed (access_denied');
    expect(world.local.store.listSources()).toEqual([]);
    const other = await world.request('/sources/new', { csrf: CSRF, kind: 'mcp-http', url: board.url });
    const back = await allowed(other.html);
    const run = await world.request(back, undefined, { kind: 'run', runId: 'run_0123456789abcdef0123' });
    expect(run.status).toBe(403);
    expect(world.draftKeys()).toEqual([]);
    expect(world.local.store.listSources()).toEqual([]);
  });
});
