/**
 * The Sources pages inside workerd, over the HubObject's own store and engine: the dashboard/
 * sub-app built with `review: hub.engine.sources` lists a source, shows its review and records
 * "Accept all proposals" through the engine, as under Node (test/engine/dashboard-sources.test.ts
 * holds the details).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { SessionMiddleware } from '../../dashboard/session.ts';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { buildManifest } from '../../engine/manifest.ts';

const hubs = (env as unknown as HubEnv).HUB;

describe('the Sources pages in workerd', () => {
  it('lists a source, shows its review and records Accept all proposals through engine.sources', async () => {
    await runInDurableObject(hubs.get(hubs.newUniqueId()), async (hub: HubObject) => {
      const now = Date.now();
      const manifest = await buildManifest({
        namespace: 'board',
        fetchedAt: now,
        tools: [
          { name: 'post', description: 'Post a message.', inputSchema: { type: 'object' } },
          {
            name: 'list_posts',
            description: 'List the posts.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
      });
      hub.store.addSource({
        kind: 'mcp-http',
        namespace: 'board',
        url: 'https://board.example/mcp?key=not-shown',
        allowedHosts: ['board.example'],
        addedAt: now,
        updatedAt: now,
      });
      hub.store.putManifest(manifest);
      const session: SessionMiddleware = async (c, next) => {
        c.set('session', { who: 'ana', csrf: 'token', scope: { kind: 'dashboard' } });
        await next();
      };
      const app = createDashboard({
        desk: hub.engine.desk,
        clock: { now: () => Date.now() },
        session,
        review: hub.engine.sources,
        wording: hub.engine.wording,
      });
      const list = await (await app.request('/sources')).text();
      expect(list).toContain('<code>https://board.example/mcp</code>');
      expect(list).toContain('Review 2 tools of board');
      expect(list).not.toContain('not-shown');
      const page = await app.request('/sources/board');
      expect(page.status).toBe(200);
      // One policy choice per tool to review (the credential form's scheme is another select).
      expect((await page.text()).match(/<select [^>]*name="effect:/g)).toHaveLength(2);
      const form = new URLSearchParams({ csrf: 'token', choice: 'accept' });
      for (const tool of manifest.tools) form.set(`contract:${tool.address}`, tool.contract);
      const accepted = await app.request('/sources/board/review', { method: 'POST', body: form });
      expect(accepted.status).toBe(303);
      expect(hub.engine.sources.pendingReview('board')).toEqual([]);
      expect(
        hub.store
          .listPolicyRules()
          .map((rule) => [rule.target.kind === 'tool' ? rule.target.address : '', rule.effect])
          .sort(),
      ).toEqual([
        ['board.list_posts', 'allow'],
        ['board.post', 'ask'],
      ]);
    });
  });
});
