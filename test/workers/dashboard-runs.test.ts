/**
 * The Inbox and a run's page inside workerd, over the HubObject's own store and engine: the same
 * dashboard/ sub-app lists the waiting run, records a decision from the inbox and returns there,
 * and draws the run's timeline (test/engine/dashboard-runs.test.ts holds the details).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';

const hubs = (env as unknown as HubEnv).HUB;

describe('the inbox and a run’s page in workerd', () => {
  it('decides from the inbox, returns to it, and draws the run’s timeline', async () => {
    await runInDurableObject(hubs.get(hubs.newUniqueId()), async (hub: HubObject) => {
      const now = Date.now();
      hub.store.createRun({
        id: 'run_w',
        profile: 'default',
        status: 'awaiting_input',
        code: 'await board.post({})',
        seed: 'ab',
        clockOrigin: now,
        attempts: 1,
        logs: [],
        notices: [],
        createdAt: now,
        updatedAt: now,
      });
      hub.store.appendJournal({
        runId: 'run_w',
        seq: 0,
        address: 'board.read',
        connection: null,
        argsDigest: 'ab'.repeat(32),
        decision: { effect: 'allow', by: 'policy', reason: 'read-only' },
        startedAt: now,
      });
      hub.store.settleJournal('run_w', 0, { ok: true, value: 1, ms: 5 }, now + 5);
      hub.store.addPendingInput({
        id: 'pending_w',
        runId: 'run_w',
        seq: 1,
        kind: 'approval',
        address: 'board.post',
        connection: null,
        summary: 'Post a message to the board.',
        argsPreview: '{}',
        argsDigest: 'ab'.repeat(32),
        contract: 'cd'.repeat(32),
        reason: 'board.post is not read-only, so it asks',
        createdAt: now + 10,
        expiresAt: now + 60_000,
      });
      const app = createDashboard({
        desk: hub.engine.desk,
        clock: { now: () => Date.now() },
        wording: hub.engine.wording,
        session: async (c, next) => {
          c.set('session', { who: 'ana', csrf: 'token', scope: { kind: 'dashboard' } });
          await next();
        },
      });
      const inbox = await (await app.request('/')).text();
      expect(inbox).toContain('One run waits for your decision');
      expect(inbox).toContain('<input type="hidden" name="back" value="inbox"/>');
      const decided = await app.request('/runs/run_w/decide', {
        method: 'POST',
        body: new URLSearchParams({ pendingId: 'pending_w', choice: 'once', csrf: 'token', back: 'inbox' }),
      });
      expect([decided.status, decided.headers.get('location')]).toEqual([303, '/']);
      const page = await (await app.request('/runs/run_w')).text();
      expect(page).toContain('<h2 id="timeline">Timeline</h2>');
      expect(page).toContain('Allow once by ana through the approval page');
      expect(page).toMatch(/<span class="tl-bar" style="margin-left: 0%; width: [\d.]+%"><\/span>/);
    });
  });
});
