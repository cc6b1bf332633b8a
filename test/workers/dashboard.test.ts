/**
 * The approval page inside workerd, over the HubObject's own store and engine: the same
 * dashboard/ sub-app renders its JSX and records a decision through `engine.desk` as it does
 * under Node (test/engine/dashboard-approval.test.ts holds the details).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { SessionMiddleware } from '../../dashboard/session.ts';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';

const hubs = (env as unknown as HubEnv).HUB;
const DAY = 24 * 60 * 60 * 1000;

describe('the approval page in workerd', () => {
  it('shows both open calls and records Allow once with channel approval page', async () => {
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
      for (const seq of [0, 1]) {
        hub.store.addPendingInput({
          id: `pending_w_${seq}`,
          runId: 'run_w',
          seq,
          kind: 'approval',
          address: 'board.post',
          connection: null,
          summary: 'Post a message to the board.',
          argsPreview: '{}',
          argsDigest: 'ab'.repeat(32),
          contract: 'cd'.repeat(32),
          reason: 'board.post is not read-only, so it asks',
          createdAt: now,
          expiresAt: now + DAY,
        });
      }
      const session: SessionMiddleware = async (c, next) => {
        c.set('session', { who: 'ana', csrf: 'token', scope: { kind: 'dashboard' } });
        await next();
      };
      const app = createDashboard({
        desk: hub.engine.desk,
        clock: { now: () => Date.now() },
        wording: hub.engine.wording,
        session,
      });
      const page = await app.request('/runs/run_w');
      expect(page.status).toBe(200);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect((await page.text()).match(/<form method="post"/g)).toHaveLength(2);
      const decided = await app.request('/runs/run_w/decide', {
        method: 'POST',
        body: new URLSearchParams({ pendingId: 'pending_w_0', choice: 'once', csrf: 'token' }),
      });
      expect(decided.status).toBe(303);
      expect(hub.store.listDecisions('run_w')).toEqual([
        expect.objectContaining({ pendingId: 'pending_w_0', choice: 'once', channel: 'approval page' }),
      ]);
    });
  });
});
