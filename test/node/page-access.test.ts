/**
 * Page access (engine/pages/page-access.ts) over the local hub's SQLite file: one-time links,
 * page sessions and their CSRF tokens, as several processes of one hub share them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCsrf } from '../../dashboard/session.ts';
import { LINK_TTL_MS, PageAccess, SESSION_TTL_MS } from '../../engine/pages/page-access.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';

const T0 = 1_800_000_000_000;
const random = { bytes: (n: number) => crypto.getRandomValues(new Uint8Array(n)) };

let dir: string;
let now: number;
const opened: LocalStore[] = [];

/** Another process of the same hub: its own connection to the same file. */
function hubProcess(): { local: LocalStore; pages: PageAccess } {
  const local = openLocalStore(join(dir, 'hub.db'), T0);
  opened.push(local);
  return { local, pages: new PageAccess({ store: local.store, clock: { now: () => now }, random }) };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-pages-'));
  now = T0;
});
afterEach(() => {
  for (const local of opened.splice(0)) local.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('page access', () => {
  it('a link opens one session, for its target; a second redeem says used', async () => {
    const { pages } = hubProcess();
    const link = await pages.mintLink({ kind: 'run', runId: 'run_1' });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toBe(T0 + LINK_TTL_MS);
    const first = await pages.redeem(link.token, 'ada');
    if (!first.ok) throw new Error(`refused: ${first.reason}`);
    expect(first.target).toEqual({ kind: 'run', runId: 'run_1' });
    expect(first.expiresAt).toBe(T0 + SESSION_TTL_MS);
    expect(await pages.session(first.sessionToken)).toEqual({
      who: 'ada',
      csrf: first.csrf,
      target: { kind: 'run', runId: 'run_1' },
      expiresAt: T0 + SESSION_TTL_MS,
    });
    expect(await pages.redeem(link.token, 'ada')).toEqual({ ok: false, reason: 'used' });
  });

  it('two processes redeeming one link at once open one session between them', async () => {
    const a = hubProcess();
    const b = hubProcess();
    const link = await a.pages.mintLink({ kind: 'dashboard' });
    const results = await Promise.all([a.pages.redeem(link.token, 'ada'), b.pages.redeem(link.token, 'ada')]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'used' }]);
    const count = a.local.sqlite.prepare('SELECT count(*) AS n FROM hub_page_sessions').get() as {
      n: number;
    };
    expect(count.n).toBe(1);
  });

  it('a session opened through one process is served by another, after the first closed', async () => {
    const a = hubProcess();
    const link = await a.pages.mintLink({ kind: 'dashboard' });
    const redeemed = await a.pages.redeem(link.token, 'ada');
    if (!redeemed.ok) throw new Error(`refused: ${redeemed.reason}`);
    a.local.close();
    opened.splice(opened.indexOf(a.local), 1);
    const b = hubProcess();
    expect((await b.pages.session(redeemed.sessionToken))?.csrf).toBe(redeemed.csrf);
  });

  it('an expired link says expired, a made-up one unknown', async () => {
    const { pages } = hubProcess();
    const link = await pages.mintLink({ kind: 'dashboard' }, 1_000);
    now = T0 + 1_000;
    expect(await pages.redeem(link.token, 'ada')).toEqual({ ok: false, reason: 'expired' });
    const other = await pages.mintLink({ kind: 'dashboard' });
    const madeUp = `${other.token.slice(0, -1)}${other.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await pages.redeem(madeUp, 'ada')).toEqual({ ok: false, reason: 'unknown' });
    expect(await pages.redeem('', 'ada')).toEqual({ ok: false, reason: 'unknown' });
    expect(await pages.redeem('../../etc/passwd', 'ada')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('a session expires, and an ended session is gone', async () => {
    const { pages } = hubProcess();
    const opens = async () => {
      const redeemed = await pages.redeem((await pages.mintLink({ kind: 'dashboard' })).token, 'ada');
      if (!redeemed.ok) throw new Error(`refused: ${redeemed.reason}`);
      return redeemed.sessionToken;
    };
    const ended = await opens();
    await pages.end(ended);
    expect(await pages.session(ended)).toBeUndefined();
    const token = await opens();
    now = T0 + SESSION_TTL_MS - 1;
    expect(await pages.session(token)).toBeDefined();
    now = T0 + SESSION_TTL_MS;
    expect(await pages.session(token)).toBeUndefined();
    expect(await pages.session('not a token')).toBeUndefined();
  });

  it("the CSRF check takes the session's own token and refuses another session's", async () => {
    const { pages } = hubProcess();
    const open = async () => {
      const redeemed = await pages.redeem((await pages.mintLink({ kind: 'dashboard' })).token, 'ada');
      if (!redeemed.ok) throw new Error(`refused: ${redeemed.reason}`);
      const live = await pages.session(redeemed.sessionToken);
      if (!live) throw new Error('no session');
      return live;
    };
    const mine = await open();
    const theirs = await open();
    expect(mine.csrf).not.toBe(theirs.csrf);
    expect(checkCsrf(mine, mine.csrf)).toBe(true);
    expect(checkCsrf(mine, theirs.csrf)).toBe(false);
    expect(checkCsrf(mine, undefined)).toBe(false);
    expect(checkCsrf(mine, '')).toBe(false);
    expect(checkCsrf(mine, mine.csrf.slice(1))).toBe(false);
  });

  it('the store holds no token: not the link, the session nor the CSRF one', async () => {
    const { local, pages } = hubProcess();
    const link = await pages.mintLink({ kind: 'run', runId: 'run_1' });
    const redeemed = await pages.redeem(link.token, 'ada');
    if (!redeemed.ok) throw new Error(`refused: ${redeemed.reason}`);
    const secrets = [link.token, redeemed.sessionToken, redeemed.csrf];
    const tables = local.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    let rows = 0;
    for (const { name } of tables) {
      for (const row of local.sqlite.prepare(`SELECT * FROM "${name}"`).all()) {
        rows++;
        const text = JSON.stringify(row);
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
    }
    expect(rows).toBeGreaterThan(1);
  });

  it('the sweep removes the links and sessions that expired, and keeps the rest', async () => {
    const { local, pages } = hubProcess();
    await pages.mintLink({ kind: 'dashboard' }, 1_000);
    const kept = await pages.mintLink({ kind: 'dashboard' });
    const used = await pages.redeem((await pages.mintLink({ kind: 'dashboard' })).token, 'ada');
    if (!used.ok) throw new Error(`refused: ${used.reason}`);
    now = T0 + 5_000;
    expect(pages.sweep()).toBe(1);
    now = T0 + SESSION_TTL_MS;
    // The kept link and the used one expired too, and the session with them.
    expect(pages.sweep()).toBe(3);
    expect(await pages.redeem(kept.token, 'ada')).toEqual({ ok: false, reason: 'unknown' });
    const left = local.sqlite
      .prepare('SELECT (SELECT count(*) FROM hub_page_links) + (SELECT count(*) FROM hub_page_sessions) AS n')
      .get() as { n: number };
    expect(left.n).toBe(0);
  });
});
