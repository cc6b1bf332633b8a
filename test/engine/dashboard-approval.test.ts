/**
 * The approval page (dashboard/), driven through its Hono sub-app over the real local store: it
 * shows every open call of a waiting run with the four choices, records one decision per form
 * through the desk with channel `approval page`, and refuses what is not a decision (a wrong or
 * missing CSRF token, a choice outside the four, an unknown or ended run, a call decided already)
 * with a page, its status code and nothing recorded. Every response carries the security headers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import { SECURITY_HEADERS } from '../../dashboard/headers.ts';
import type { SessionMiddleware } from '../../dashboard/session.ts';
import { createDesk } from '../../engine/desk/index.ts';
import { type PromptWorld, promptWorld } from './prompt-fixture.ts';

const CSRF = 'csrf-token-of-the-test-session';

let world: PromptWorld;
let app: ReturnType<typeof createDashboard>;
beforeEach(() => {
  world = promptWorld();
  const { store, clock, random, wording } = world;
  const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
  // The host's part: a known person with this CSRF token (a real host reads its session cookie).
  const session: SessionMiddleware = async (c, next) => {
    c.set('session', { who: 'ana', csrf: CSRF, scope: { kind: 'dashboard' } });
    await next();
  };
  app = createDashboard({ desk, clock, wording, session });
});
afterEach(() => world.close());

const decide = (runId: string, form: Record<string, string>) =>
  app.request(`/runs/${runId}/decide`, { method: 'POST', body: new URLSearchParams(form) });

const decisions = (runId: string) => world.store.listDecisions(runId);

describe('the approval page', () => {
  it('lets the host go on with the run once a decision is recorded, and answers whatever comes of it', async () => {
    const [first] = world.seedRun('run_d', 1);
    const { store, clock, random, wording } = world;
    const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
    const seen: [string, number][] = [];
    const hooked = createDashboard({
      desk,
      clock,
      wording,
      session: async (c, next) => {
        c.set('session', { who: 'ana', csrf: CSRF, scope: { kind: 'dashboard' } });
        await next();
      },
      decided: async (runId) => {
        seen.push([runId, decisions(runId).length]);
        throw new Error('the host could not go on');
      },
    });
    const response = await hooked.request('/runs/run_d/decide', {
      method: 'POST',
      body: new URLSearchParams({ pendingId: first ?? '', choice: 'once', csrf: CSRF }),
    });
    expect(response.status).toBe(303);
    expect(seen).toEqual([['run_d', 1]]);
  });

  it('shows a call that waits for a sign-in without a form, saying how to sign in again', async () => {
    const [approval] = world.seedRun('run_c', 1);
    world.store.addPendingInput({
      id: 'pending_run_c_sign_in',
      runId: 'run_c',
      seq: 1,
      kind: 'connection',
      address: 'board.post',
      connection: 'work',
      summary: 'Post a message to the board.',
      argsPreview: '{}',
      argsDigest: 'ab'.repeat(32),
      contract: 'cd'.repeat(32),
      reason: 'the sign-in of board/work no longer works',
      createdAt: world.clock.now(),
      expiresAt: world.clock.now() + 60_000,
    });
    const html = await (await app.request('/runs/run_c')).text();
    // The approval keeps its form; the sign-in has none (a decision on it would be refused).
    expect(html.match(/<form method="post"/g)).toHaveLength(1);
    expect(html).toContain(`value="${approval}"`);
    expect(html).not.toContain('value="pending_run_c_sign_in"');
    expect(html).toContain('waits for connection board/work to be signed in again');
    expect(html).toContain('Next: `capabilities hub auth board --connection work`');
    const inbox = await (await app.request('/')).text();
    expect(inbox).toContain('waits for connection board/work to be signed in again');
    expect(inbox.match(/<form method="post"/g)).toHaveLength(1);
  });

  it('shows every open call of the run with its connection, reason, arguments, expiry and four buttons', async () => {
    const [first, second] = world.seedRun('run_a', 2);
    const response = await app.request('/runs/run_a');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('2 calls wait');
    for (const id of [first, second])
      expect(html).toContain(`<input type="hidden" name="pendingId" value="${id}"/>`);
    expect(html.match(/<form method="post" action="run_a\/decide">/g)).toHaveLength(2);
    expect(html.match(new RegExp(`name="csrf" value="${CSRF}"`, 'g'))).toHaveLength(2);
    for (const [choice, label] of [
      ['once', 'Allow once'],
      ['run', 'Allow for this run'],
      ['always', 'Always allow'],
      ['deny', 'Deny'],
    ]) {
      expect(
        html.match(
          new RegExp(`<button type="submit" name="choice" value="${choice}">${label}</button>`, 'g'),
        ),
      ).toHaveLength(2);
    }
    expect(html).toContain('<dd>none</dd>');
    expect(html).toContain('<dd>work</dd>');
    expect(html).toContain('board.post is not read-only, so it asks');
    expect(html).toContain('Post a message to the board.');
    expect(html).toContain('&quot;text&quot;: &quot;hello 1&quot;');
    expect(html).toContain('2027-01-16 08:00 UTC (in 24 h 0 min)');
    expect(html).not.toContain('<script');
  });

  it('shows upstream text inert and escaped, and cuts arguments at 4 KB with a marker', async () => {
    world.seedRun('run_x', 0);
    world.store.addPendingInput({
      id: 'pending_x',
      runId: 'run_x',
      seq: 0,
      kind: 'approval',
      address: 'board.post',
      connection: null,
      summary: 'Posts.\u202e<script>alert(1)</script>\x1b[2J',
      argsPreview: '{}',
      argsDigest: null,
      contract: null,
      args: { text: 'x'.repeat(5000) },
      reason: 'asks',
      createdAt: world.clock.now(),
      expiresAt: world.clock.now() + 1000,
    });
    const html = await (await app.request('/runs/run_x')).text();
    expect(html).toContain('Posts.\\u202e&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J');
    expect(html).not.toContain('<script>');
    expect(html).toContain('… (cut: the first 4 KB of 5016 bytes are shown)');
    // Allow covers every byte, so every byte can be read on the page before deciding.
    expect(html).toContain('Allowing the call allows all of them');
    expect(html).toContain('<summary>All 5016 bytes of the arguments</summary>');
    expect(html).toContain(`&quot;text&quot;: &quot;${'x'.repeat(5000)}&quot;`);
    expect(html).toContain('(in 1 s)');
  });

  it('Allow once records exactly one decision, channel approval page, and the page then says so', async () => {
    const [first, second] = world.seedRun('run_a', 2);
    const response = await decide('run_a', { pendingId: first ?? '', choice: 'once', csrf: CSRF });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('../run_a');
    expect(decisions('run_a')).toEqual([
      expect.objectContaining({ pendingId: first, choice: 'once', channel: 'approval page', who: 'ana' }),
    ]);
    const html = await (await app.request('/runs/run_a')).text();
    expect(html).toContain('One call waits');
    expect(html).toContain(`value="${second}"`);
    expect(html).not.toContain(`value="${first}"`);
    expect(html).toMatch(/board\.post: <strong>Allow once<\/strong>, by ana through the approval page/);
  });

  it('a second decision on the same call records nothing and says it was already decided', async () => {
    const [first] = world.seedRun('run_a', 2);
    await decide('run_a', { pendingId: first ?? '', choice: 'once', csrf: CSRF });
    const again = await decide('run_a', { pendingId: first ?? '', choice: 'deny', csrf: CSRF });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(
      'The call board.post was already decided (once, by ana through the approval page); a decision is accepted once, so nothing more was recorded.',
    );
    expect(decisions('run_a')).toHaveLength(1);
  });

  it('a call decided meanwhile in the terminal or the client’s prompt is refused on the page, naming that channel', async () => {
    const { store, clock, random, wording } = world;
    const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
    const [viaCli, viaPrompt] = world.seedRun('run_a', 2);
    desk.runs.decide({ pendingId: viaCli ?? '', choice: 'deny', channel: 'cli', who: 'ana' });
    desk.runs.decide({ pendingId: viaPrompt ?? '', choice: 'once', channel: 'client prompt', who: 'ana' });
    for (const [pendingId, channel] of [
      [viaCli, 'cli'],
      [viaPrompt, 'client prompt'],
    ]) {
      const late = await decide('run_a', { pendingId: pendingId ?? '', choice: 'always', csrf: CSRF });
      expect(late.status).toBe(409);
      expect(await late.text()).toContain(`through the ${channel}`);
    }
    expect(
      decisions('run_a')
        .map((d) => d.channel)
        .sort(),
    ).toEqual(['cli', 'client prompt']);
  });

  it('refuses a missing or wrong CSRF token (403), a choice outside the four (400), a call of another run (409)', async () => {
    const [first] = world.seedRun('run_a', 1);
    const [other] = world.seedRun('run_b', 1);
    const forms: Record<string, string>[] = [
      { pendingId: first ?? '', choice: 'once' },
      { pendingId: first ?? '', choice: 'once', csrf: `${CSRF}x` },
      { pendingId: first ?? '', choice: 'once', csrf: CSRF.slice(0, -1) },
      { pendingId: first ?? '', choice: 'once', csrf: '' },
    ];
    for (const form of forms) {
      const response = await decide('run_a', form);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('nothing was decided');
    }
    const bad = await decide('run_a', { pendingId: first ?? '', choice: 'forever', csrf: CSRF });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      'A decision is one of Allow once, Allow for this run, Always allow or Deny',
    );
    const foreign = await decide('run_a', { pendingId: other ?? '', choice: 'once', csrf: CSRF });
    expect(foreign.status).toBe(409);
    expect(await foreign.text()).toContain(`Run run_a has no call ${other} waiting for a decision`);
    expect([...decisions('run_a'), ...decisions('run_b')]).toEqual([]);
  });

  it('an unknown run is 404; a run no longer waiting is 409 with its status on the form, and its page has no form', async () => {
    const [first] = world.seedRun('run_done', 1);
    world.store.updateRun('run_done', { status: 'completed', updatedAt: world.clock.now() });
    const unknown = await app.request('/runs/run_nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This hub has no run run_nope; nothing was recorded.');
    expect((await decide('run_nope', { pendingId: 'p', choice: 'once', csrf: CSRF })).status).toBe(404);
    // The run's page shows a run of any status (its timeline); a run not waiting has no form.
    const ended = await app.request('/runs/run_done');
    expect(ended.status).toBe(200);
    expect(await ended.text()).not.toContain('<form');
    const refused = await decide('run_done', { pendingId: first ?? '', choice: 'once', csrf: CSRF });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('The run is completed: it waits for no decision');
    expect(decisions('run_done')).toEqual([]);
  });

  it('an expired request is refused by the engine, shown as a page, nothing recorded', async () => {
    const [first] = world.seedRun('run_a', 1);
    world.clock.set(world.clock.now() + 2 * 24 * 60 * 60 * 1000);
    const response = await decide('run_a', { pendingId: first ?? '', choice: 'once', csrf: CSRF });
    expect(response.status).toBe(410);
    expect(await response.text()).toContain('expired');
    expect(decisions('run_a')).toEqual([]);
  });

  it('every response carries the security headers: the page, a redirect, a refusal', async () => {
    const [first] = world.seedRun('run_a', 2);
    const responses = [
      await app.request('/runs/run_a'),
      await decide('run_a', { pendingId: first ?? '', choice: 'once', csrf: CSRF }),
      await decide('run_a', { pendingId: first ?? '', choice: 'once' }),
      await app.request('/runs/run_nope'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 303, 403, 404]);
    for (const response of responses) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name)).toBe(value);
    }
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('answers nothing when the host’s session middleware answers first', async () => {
    const { store, clock, random, wording } = world;
    const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
    const guarded = createDashboard({
      desk,
      clock,
      wording: world.wording,
      session: (c) => Promise.resolve(c.text('sign in', 401)),
    });
    const [first] = world.seedRun('run_a', 1);
    const response = await guarded.request('/runs/run_a/decide', {
      method: 'POST',
      body: new URLSearchParams({ pendingId: first ?? '', choice: 'once', csrf: CSRF }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(decisions('run_a')).toEqual([]);
  });

  it('a session opened for one run can neither see nor decide another (403), and nothing is recorded', async () => {
    const [first] = world.seedRun('run_a', 1);
    const [other] = world.seedRun('run_b', 1);
    const { store, clock, random, wording } = world;
    const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
    const scoped = createDashboard({
      desk,
      clock,
      wording,
      session: async (c, next) => {
        c.set('session', { who: 'ana', csrf: CSRF, scope: { kind: 'run', runId: 'run_a' } });
        await next();
      },
    });
    expect((await scoped.request('/runs/run_a')).status).toBe(200);
    const seen = await scoped.request('/runs/run_b');
    expect(seen.status).toBe(403);
    expect(await seen.text()).toContain('opened for another run');
    const posted = await scoped.request('/runs/run_b/decide', {
      method: 'POST',
      body: new URLSearchParams({ pendingId: other ?? '', choice: 'once', csrf: CSRF }),
    });
    expect(posted.status).toBe(403);
    expect(decisions('run_b')).toEqual([]);
    expect(first).toBeDefined();
  });
});
