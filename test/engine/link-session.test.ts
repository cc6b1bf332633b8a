/**
 * Page sessions opened by one-time links (dashboard/link-session.tsx) over the real store and
 * the engine's PageAccess: the exchange sets an HttpOnly, SameSite=Strict cookie and sends the
 * browser to what the link opened; a used, expired or unknown link opens nothing and says so
 * (offering the page when this browser already holds a session); a request without a live
 * session is refused before any page reads anything; a run link's session reaches that run only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import { linkSession } from '../../dashboard/link-session.tsx';
import { createDesk } from '../../engine/desk/index.ts';
import { LINK_TTL_MS, PageAccess } from '../../engine/pages/page-access.ts';
import { type PromptWorld, promptWorld } from './prompt-fixture.ts';

const COOKIE = 'capabilities_hub_test';

let world: PromptWorld;
let pages: PageAccess;
let app: ReturnType<typeof createDashboard>;
beforeEach(() => {
  world = promptWorld();
  const { store, clock, random, wording } = world;
  pages = new PageAccess({ store, clock, random });
  const links = linkSession({
    pages,
    who: 'ana',
    cookie: COOKIE,
  });
  const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
  app = createDashboard({ desk, clock, wording, session: links.session, exchange: links.exchange });
});
afterEach(() => world.close());

/** The session cookie a response set, as the browser sends it back. */
function cookieOf(response: Response): string {
  const set = response.headers.get('set-cookie') ?? '';
  const pair = set.split(';')[0] ?? '';
  expect(pair.startsWith(`${COOKIE}=`)).toBe(true);
  return pair;
}

describe('one-time links and page sessions', () => {
  it('exchanges a run link once for a cookie session and sends the browser to the run, without the token', async () => {
    world.seedRun('run_a', 1);
    const link = await pages.mintLink({ kind: 'run', runId: 'run_a' });
    const opened = await app.request(`/open?t=${link.token}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/runs/run_a');
    const set = opened.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toContain(link.token);
    expect(opened.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const page = await app.request('/runs/run_a', { headers: { cookie: cookieOf(opened) } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('One call waits');
  });

  it('a second click on a used link opens nothing, and offers the page when this browser has a session', async () => {
    world.seedRun('run_a', 1);
    const link = await pages.mintLink({ kind: 'run', runId: 'run_a' });
    const cookie = cookieOf(await app.request(`/open?t=${link.token}`));

    const again = await app.request(`/open?t=${link.token}`, { headers: { cookie } });
    expect(again.status).toBe(410);
    expect(again.headers.get('set-cookie')).toBeNull();
    const html = await again.text();
    expect(html).toContain('This link was already used');
    expect(html).toContain('<a href="/runs/run_a">Go to the page</a>');

    const elsewhere = await app.request(`/open?t=${link.token}`);
    expect(elsewhere.status).toBe(410);
    expect(await elsewhere.text()).toContain('run `capabilities hub dashboard`');
  });

  it('an expired or unknown link opens nothing', async () => {
    const link = await pages.mintLink({ kind: 'dashboard' });
    world.clock.set(world.clock.now() + LINK_TTL_MS + 1);
    const expired = await app.request(`/open?t=${link.token}`);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    expect(expired.headers.get('set-cookie')).toBeNull();
    for (const token of ['', 'x', 'A'.repeat(43), `${link.token}x`]) {
      const unknown = await app.request(`/open?t=${encodeURIComponent(token)}`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses every page without a live session: no cookie, a forged one, an ended one', async () => {
    const [pendingId] = world.seedRun('run_a', 1);
    const link = await pages.mintLink({ kind: 'dashboard' });
    const cookie = cookieOf(await app.request(`/open?t=${link.token}`));
    for (const headers of [{}, { cookie: `${COOKIE}=${'A'.repeat(43)}` }, { cookie: `${COOKIE}=nope` }]) {
      const page = await app.request('/runs/run_a', { headers });
      expect(page.status).toBe(401);
      expect(await page.text()).toContain('No page session');
      const posted = await app.request('/runs/run_a/decide', {
        method: 'POST',
        headers,
        body: new URLSearchParams({ pendingId: pendingId ?? '', choice: 'once', csrf: 'x' }),
      });
      expect(posted.status).toBe(401);
    }
    await pages.end(cookie.slice(COOKIE.length + 1));
    expect((await app.request('/runs/run_a', { headers: { cookie } })).status).toBe(401);
    expect(world.store.listDecisions('run_a')).toEqual([]);
  });

  it('a run link’s session reaches that run only; a dashboard link’s reaches every run', async () => {
    world.seedRun('run_a', 1);
    world.seedRun('run_b', 1);
    const runLink = await pages.mintLink({ kind: 'run', runId: 'run_a' });
    const runCookie = cookieOf(await app.request(`/open?t=${runLink.token}`));
    expect((await app.request('/runs/run_b', { headers: { cookie: runCookie } })).status).toBe(403);

    const dashboardLink = await pages.mintLink({ kind: 'dashboard' });
    const opened = await app.request(`/open?t=${dashboardLink.token}`);
    expect(opened.headers.get('location')).toBe('/');
    const cookie = cookieOf(opened);
    for (const run of ['run_a', 'run_b'])
      expect((await app.request(`/runs/${run}`, { headers: { cookie } })).status).toBe(200);
  });

  it('a HEAD uses up no link, and a run link keeps a dashboard session this browser already holds', async () => {
    world.seedRun('run_a', 1);
    const dashboardLink = await pages.mintLink({ kind: 'dashboard' });
    const checked = await app.request(`/open?t=${dashboardLink.token}`, { method: 'HEAD' });
    expect(checked.status).toBe(200);
    expect(checked.headers.get('set-cookie')).toBeNull();
    const cookie = cookieOf(await app.request(`/open?t=${dashboardLink.token}`));

    const runLink = await pages.mintLink({ kind: 'run', runId: 'run_a' });
    const opened = await app.request(`/open?t=${runLink.token}`, { headers: { cookie } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/runs/run_a');
    expect(opened.headers.get('set-cookie')).toBeNull();
    expect((await app.request('/', { headers: { cookie } })).status).toBe(200);
    expect((await app.request(`/open?t=${runLink.token}`)).status).toBe(410);
  });
});
