/**
 * The hosted hub reaches only the public internet (server-side request forgery): inside workerd,
 * the connector a HubObject builds refuses loopback and the cloud metadata address, both when a
 * source is added and when a stored one is read, unless ALLOW_PRIVATE_UPSTREAMS is `1`
 * (development only). Each hub here is built over the test's Durable Object state with an env
 * that says exactly what it holds, so a developer's .dev.vars cannot change what is tested.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import { HubObject } from '../../durable-objects/hub-object.ts';
import { hubErrorOf } from '../hub-error.ts';

const hubs = (env as unknown as HubEnv).HUB;

/** Runs `body` on a HubObject over a fresh Durable Object's state, with ALLOW_PRIVATE_UPSTREAMS as given. */
async function withHub(allow: string | undefined, body: (hub: HubObject) => Promise<void>): Promise<void> {
  const { ALLOW_PRIVATE_UPSTREAMS: _ignored, ...rest } = env as unknown as HubEnv;
  const hubEnv: HubEnv = allow === undefined ? rest : { ...rest, ALLOW_PRIVATE_UPSTREAMS: allow };
  await runInDurableObject(hubs.get(hubs.newUniqueId()), async (_hub: HubObject, state) => {
    const hub = new HubObject(state, hubEnv);
    // The constructor opens the store inside blockConcurrencyWhile: wait for it as the runtime would.
    await state.blockConcurrencyWhile(async () => undefined);
    await body(hub);
  });
}

const PRIVATE = [
  ['http://127.0.0.1:9/mcp', 'loopback'],
  ['http://169.254.169.254/', 'link-local (cloud metadata)'],
] as const;

describe('the hosted hub and private addresses', () => {
  it('refuses loopback and cloud metadata by default, when a source is added', async () => {
    await withHub(undefined, async (hub) => {
      for (const [url, reason] of PRIVATE) {
        const e = await hubErrorOf(() => hub.engine.sources.inspect({ kind: 'mcp-http', url }));
        expect(e.code, url).toBe('denied');
        expect(e.message).toContain(`cannot add a source at a private address (${reason})`);
        // The hosted wording's point: sources are public; a person, not a command, fixes it.
        expect(e.message).toContain('public');
        expect(e.detail).toContain('ALLOW_PRIVATE_UPSTREAMS');
      }
      expect(hub.store.listSources()).toEqual([]);
    });
  });

  it('refuses them by default when a stored source is read: the connector guards every request', async () => {
    await withHub(undefined, async (hub) => {
      for (const [index, [url, reason]] of PRIVATE.entries()) {
        const now = Date.now();
        const namespace = `inside${index}`;
        hub.store.addSource({
          kind: 'mcp-http',
          namespace,
          url,
          allowedHosts: [new URL(url).host],
          addedAt: now,
          updatedAt: now,
        });
        const e = await hubErrorOf(() => hub.engine.sources.refresh(namespace));
        expect(e.code, url).toBe('denied');
        expect(e.message).toContain(`refused a request to a private address (${reason})`);
      }
    });
  });

  it('lets them through with ALLOW_PRIVATE_UPSTREAMS=1 (development)', async () => {
    await withHub('1', async (hub) => {
      // Nothing listens on port 9: the request is made and fails to connect, it is not refused.
      const e = await hubErrorOf(() =>
        hub.engine.sources.inspect({ kind: 'mcp-http', url: 'http://127.0.0.1:9/mcp' }),
      );
      expect(e.code).not.toBe('denied');
    });
  });

  it('refuses them with any other value of the setting', async () => {
    await withHub('true', async (hub) => {
      const e = await hubErrorOf(() =>
        hub.engine.sources.inspect({ kind: 'mcp-http', url: 'http://127.0.0.1:9/mcp' }),
      );
      expect(e.code).toBe('denied');
    });
  });
});
