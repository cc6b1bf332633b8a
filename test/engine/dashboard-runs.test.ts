/**
 * The dashboard's Inbox and Runs pages (dashboard/runs-routes.tsx), driven through the Hono
 * sub-app over the real local store: the inbox lists every run waiting for a person with its
 * calls decidable in place and a decision from it returns to it; `back` names a page and is never
 * a URL; the history is a table of runs, capped; a run's page draws its journal as a timeline
 * (calls, replays, asks and decisions on one axis); the inbox and the history need a dashboard
 * session, a run's page a session that reaches the run.
 */
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import { RUNS_LISTED } from '../../dashboard/runs-routes.tsx';
import type { PageSession } from '../../dashboard/session.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import { createDesk } from '../../engine/desk/index.ts';
import { type PromptWorld, promptWorld, T0 } from './prompt-fixture.ts';

const CSRF = 'csrf-token-of-the-test-session';
const DIGEST = 'ab'.repeat(32);

let world: PromptWorld;
beforeEach(() => {
  world = promptWorld();
});
afterEach(() => world.close());

/** The dashboard behind a host session of `scope` (a real host reads its session cookie). */
function dashboard(scope: PageTarget = { kind: 'dashboard' }) {
  const { store, clock, random, wording } = world;
  const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
  const session: PageSession = { who: 'ana', csrf: CSRF, scope };
  return createDashboard({
    desk,
    clock,
    wording,
    session: async (c, next) => {
      c.set('session', session);
      await next();
    },
  });
}

/** The dashboard, or a host app that mounts it: what a test requests pages from. */
interface App {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

const post = (app: App, path: string, form: Record<string, string>) =>
  app.request(path, { method: 'POST', body: new URLSearchParams(form) });

const page = async (app: App, path: string) => {
  const response = await app.request(path);
  return { status: response.status, html: await response.text() };
};

describe('the inbox', () => {
  it('lists every run waiting for a person, newest first, each call with its form returning to the inbox', async () => {
    world.seedRun('run_a', 1);
    const [b0, b1] = world.seedRun('run_b', 2);
    const app = dashboard();
    const { status, html } = await page(app, '/');
    expect(status).toBe(200);
    expect(html).toContain('<h1>Inbox</h1>');
    expect(html).toContain('2 runs wait for your decision, newest first.');
    // run_b sorts first: same start, the later id is the newer run (the store's order).
    expect(html.indexOf('Run run_b')).toBeLessThan(html.indexOf('Run run_a'));
    expect(html).toContain('<a href="/runs/run_b">Run run_b</a>');
    expect(html.match(/<form method="post" action="\/runs\/run_b\/decide">/g)).toHaveLength(2);
    expect(html.match(/<input type="hidden" name="back" value="inbox"\/>/g)).toHaveLength(3);
    expect(html.match(/<h3 id="call-/g)).toHaveLength(3);
    for (const id of [b0, b1]) expect(html).toContain(`name="pendingId" value="${id}"`);
    expect(html).toContain('<button type="submit" name="choice" value="always">Always allow</button>');
    expect(html).toContain('board.post is not read-only, so it asks');
    expect(html).toContain('&quot;text&quot;: &quot;hello 1&quot;');
    expect(html).toContain('<nav class="site" aria-label="Dashboard">');
    expect(html).toContain('<a href="/" aria-current="page">Inbox</a>');
    expect(html).toContain('<a href="/runs">Runs</a>');
    expect(html).toContain('<a href="/sources">Sources</a>');
    expect(html).not.toContain('<script');
  });

  it('says so in a sentence when nothing waits, and counts runs decided that wait for their agent', async () => {
    const app = dashboard();
    expect((await page(app, '/')).html).toContain(
      'Nothing waits for you: no run is waiting for a person’s decision.',
    );
    const [only] = world.seedRun('run_a', 1);
    await post(app, '/runs/run_a/decide', {
      pendingId: only ?? '',
      choice: 'once',
      csrf: CSRF,
      back: 'inbox',
    });
    const { html } = await page(app, '/');
    expect(html).toContain('Nothing waits for you');
    expect(html).toContain(
      'One more run is decided and waits for its agent to resume; see <a href="/runs">Runs</a>.',
    );
    expect(html).not.toContain('<form');
  });

  it('a decision from the inbox is recorded once, channel approval page, and sends the browser back to the inbox', async () => {
    const [first, second] = world.seedRun('run_a', 2);
    const app = dashboard();
    const response = await post(app, '/runs/run_a/decide', {
      pendingId: first ?? '',
      choice: 'deny',
      csrf: CSRF,
      back: 'inbox',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(world.store.listDecisions('run_a')).toEqual([
      expect.objectContaining({ pendingId: first, choice: 'deny', channel: 'approval page', who: 'ana' }),
    ]);
    const { html } = await page(app, '/');
    expect(html).toContain(`value="${second}"`);
    expect(html).not.toContain(`value="${first}"`);
    // From the run's page the form says `run`, and a form without the field (older pages) too.
    const fromRun = await post(app, '/runs/run_a/decide', {
      pendingId: second ?? '',
      choice: 'once',
      csrf: CSRF,
      back: 'run',
    });
    expect(fromRun.headers.get('location')).toBe('../run_a');
  });

  it('back names a page, never a URL: anything else is refused (400), no redirect, nothing recorded', async () => {
    const [first] = world.seedRun('run_a', 1);
    const app = dashboard();
    for (const back of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'Inbox',
      'inbox ',
      '../..',
    ]) {
      const response = await post(app, '/runs/run_a/decide', {
        pendingId: first ?? '',
        choice: 'once',
        csrf: CSRF,
        back,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      const html = await response.text();
      expect(html).toContain(
        'named a page to return to that the dashboard does not have; nothing was decided',
      );
      expect(html).not.toContain('evil.example');
    }
    expect(world.store.listDecisions('run_a')).toEqual([]);
    // A refusal from the inbox links back to the inbox.
    const refused = await post(app, '/runs/run_a/decide', {
      pendingId: first ?? '',
      choice: 'never',
      csrf: CSRF,
      back: 'inbox',
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('<a href="/">Back to the inbox</a>');
  });

  it('links under the mount the host chose, and a decision returns to the inbox there', async () => {
    const [first] = world.seedRun('run_a', 1);
    const host = new Hono().route('/dashboard', dashboard());
    const { html } = await page(host, '/dashboard');
    expect(html).toContain('<form method="post" action="/dashboard/runs/run_a/decide">');
    expect(html).toContain('<a href="/dashboard/runs">Runs</a>');
    expect(html).toContain('<a href="/dashboard/runs/run_a">Run run_a</a>');
    const response = await post(host, '/dashboard/runs/run_a/decide', {
      pendingId: first ?? '',
      choice: 'once',
      csrf: CSRF,
      back: 'inbox',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
  });
});

/**
 * A run as the engine leaves it after a person decided on its write: attempt 1 read the board
 * (T0+100 → +400 ms) and asked about board.post (+500 ms); ana allowed it a minute later through
 * the approval page; attempt 2 replayed the read, posted (+60.6 s → +61 s, an upstream error),
 * started a third call that never settled, and the run failed at +62 s.
 */
async function decidedRun(app: App) {
  const { store, clock } = world;
  const [asked] = world.seedRun('run_t', 0);
  expect(asked).toBeUndefined();
  const start = (seq: number, address: string, at: number) =>
    store.appendJournal({
      runId: 'run_t',
      seq,
      address,
      connection: seq === 1 ? 'work' : null,
      argsDigest: DIGEST,
      decision: { effect: 'allow', by: 'policy', reason: 'read-only' },
      startedAt: T0 + at,
    });
  start(0, 'board.read', 100);
  store.settleJournal('run_t', 0, { ok: true, value: { posts: 3 }, ms: 300 }, T0 + 400);
  store.addPendingInput({
    id: 'pending_t',
    runId: 'run_t',
    seq: 1,
    kind: 'approval',
    address: 'board.post',
    connection: 'work',
    summary: 'Post a message to the board.',
    argsPreview: '{}',
    argsDigest: DIGEST,
    contract: 'cd'.repeat(32),
    reason: 'board.post is not read-only, so it asks',
    createdAt: T0 + 500,
    expiresAt: T0 + 24 * 60 * 60 * 1000,
  });
  clock.set(T0 + 60_500);
  const decided = await post(app, '/runs/run_t/decide', {
    pendingId: 'pending_t',
    choice: 'once',
    csrf: CSRF,
  });
  expect(decided.status).toBe(303);
  {
    store.updateRun('run_t', { status: 'running', attempts: 2, updatedAt: T0 + 60_550 });
    start(1, 'board.post', 60_600);
    const error = { code: 'upstream_error' as const, message: 'board said 502', retryable: true };
    store.settleJournal('run_t', 1, { ok: false, error, ms: 400 }, T0 + 61_000);
    start(2, 'board.read', 61_100);
    store.updateRun('run_t', {
      status: 'failed',
      error: { code: 'upstream_error', message: 'board said 502' },
      updatedAt: T0 + 62_000,
    });
    clock.set(T0 + 90_000);
  }
}

describe('a run’s page', () => {
  it('draws the journal as a timeline: calls, replays, outcomes and the wait for a person on one axis', async () => {
    const app = dashboard();
    await decidedRun(app);
    const { status, html } = await page(app, '/runs/run_t');
    expect(status).toBe(200);
    expect(html).toContain('<title>Run run_t: failed</title>');
    expect(html).not.toContain('<form');
    expect(html).toContain('<dd>upstream_error: board said 502</dd>');
    expect(html).toContain('<dd>1 min 2 s</dd>');
    expect(html).toContain('<h2 id="timeline">Timeline</h2>');
    expect(html).toContain(
      '1 min 2 s from start to the last event: calls took 700 ms in all, waiting for a person 1 min.',
    );
    const rows = [
      ...html.matchAll(
        /<li><div class="tl-text">(.*?)<\/div><div class="tl-track" aria-hidden="true"><span class="([^"]+)" style="([^"]+)"><\/span><\/div><\/li>/g,
      ),
    ].map(([, text, kind, style]) => [text?.replace(/<\/?strong>/g, ''), kind, style]);
    expect(rows).toEqual([
      [
        'board.read: call 0, at +100 ms, took 300 ms, ok, replayed on a later attempt',
        'tl-bar',
        'margin-left: 0.16%; width: 0.5%',
      ],
      [
        'Asked a person about board.post (connection work): at +500 ms, decided after 1 min: Allow once by ana through the approval page',
        'tl-bar ask',
        'margin-left: 0.81%; width: 96.77%',
      ],
      [
        'board.post (connection work): call 1, at +1 min, took 400 ms, error upstream_error',
        'tl-bar fail',
        'margin-left: 97.74%; width: 0.65%',
      ],
      [
        'board.read: call 2, at +1 min 1 s, no outcome, in doubt (it started and never settled; it is never sent again)',
        'tl-bar doubt',
        'margin-left: 98.55%; width: 1.45%',
      ],
    ]);
    expect(html).toMatch(
      /board\.post \(connection work\): <strong>Allow once<\/strong>, by ana through the approval page/,
    );
  });

  it('a waiting run shows its forms first, then its timeline, the wait running up to now', async () => {
    world.seedRun('run_a', 1);
    world.clock.set(T0 + 30_000);
    const { status, html } = await page(dashboard(), '/runs/run_a');
    expect(status).toBe(200);
    expect(html.indexOf('<form method="post" action="run_a/decide">')).toBeLessThan(html.indexOf('Timeline'));
    expect(html).toContain('<input type="hidden" name="back" value="run"/>');
    expect(html).toContain('<dd>waiting for a person</dd>');
    expect(html).toContain('<dd>30 s so far</dd>');
    expect(html).toContain('at +0 ms, waited 30 s: still waiting for a person');
    expect(html).toContain('style="margin-left: 0%; width: 100%"');
  });

  it('shows upstream and guest strings inert and escaped', async () => {
    world.seedRun('run_x', 0);
    world.store.updateRun('run_x', {
      status: 'failed',
      error: { code: 'tool_error', message: 'the guest threw \u202e<b>bold</b>\x1b[2J' },
      updatedAt: T0 + 5,
    });
    const { html } = await page(dashboard(), '/runs/run_x');
    expect(html).toContain('<dd>tool_error: the guest threw \\u202e&lt;b&gt;bold&lt;/b&gt;\\x1b[2J</dd>');
    expect(html).not.toContain('<b>');
  });

  it('an unknown run is 404, and a session for one run reaches that run’s page alone', async () => {
    world.seedRun('run_a', 1);
    world.seedRun('run_b', 1);
    expect((await page(dashboard(), '/runs/run_nope')).status).toBe(404);
    const scoped = dashboard({ kind: 'run', runId: 'run_a' });
    expect((await page(scoped, '/runs/run_a')).status).toBe(200);
    expect((await page(scoped, '/runs/run_b')).status).toBe(403);
  });
});

describe('the history of runs', () => {
  it('is a table of runs, newest first, with status, start, duration, calls and who decided what through which channel', async () => {
    const app = dashboard();
    await decidedRun(app);
    world.seedRun('run_w', 2);
    const { status, html } = await page(app, '/runs');
    expect(status).toBe(200);
    expect(html).toContain('<a href="/runs" aria-current="page">Runs</a>');
    expect(html).toContain('2 runs, newest first.');
    for (const header of ['Run', 'Status', 'Started', 'Duration', 'Calls', 'Decisions'])
      expect(html).toContain(`<th scope="col">${header}</th>`);
    const rows = [...html.matchAll(/<tr><th scope="row">(.*?)<\/tr>/g)].map(([row]) =>
      (row ?? '').replace(/<[^>]+>/g, '|').replace(/\|+/g, '|'),
    );
    expect(rows).toEqual([
      '|run_w|waiting for a person|2027-01-15 08:00 UTC|1 min 30 s so far|0|none yet|',
      '|run_t|failed|2027-01-15 08:00 UTC|1 min 2 s|3|board.post: Allow once, by ana through the approval page|',
    ]);
    expect(html).toContain('<a href="/runs/run_t">run_t</a>');
  });

  it(`lists the newest ${RUNS_LISTED} runs and says when older ones are left out`, async () => {
    for (let i = 0; i <= RUNS_LISTED; i++) world.seedRun(`run_${String(i).padStart(3, '0')}`, 0);
    const { html } = await page(dashboard(), '/runs');
    expect(html).toContain(`The newest ${RUNS_LISTED} runs are listed; older ones are left out.`);
    expect(html.match(/<th scope="row">/g)).toHaveLength(RUNS_LISTED);
    expect(html).toContain('run_100');
    expect(html).not.toContain('>run_000<');
  });

  it('says so when the hub has no runs yet', async () => {
    expect((await page(dashboard(), '/runs')).html).toContain('This hub has no runs yet');
  });
});

describe('scope', () => {
  it('the inbox and the history need a dashboard session: a run’s session gets a 403 page that says what to run', async () => {
    world.seedRun('run_a', 1);
    const scoped = dashboard({ kind: 'run', runId: 'run_a' });
    for (const path of ['/', '/runs']) {
      const { status, html } = await page(scoped, path);
      expect(status).toBe(403);
      expect(html).toContain('For the whole dashboard, run `capabilities hub dashboard` in a terminal.');
      expect(html).not.toContain('run_a');
    }
  });
});
