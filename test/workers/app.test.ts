/**
 * The Worker entry in workerd: /healthz (with the self-hosting HUB_TOKEN bound, as here, the id
 * of that one hub), /mcp behind OAuth or that token, and pages behind sign-in.
 */
import { describe, expect, it } from 'vitest';
import { WORKERS_TEST_TOKEN } from './token.ts';
import { worker } from './worker-client.ts';

const get = (path: string, headers: Record<string, string> = {}) =>
  worker.fetch(new Request(`https://hub.example${path}`, { headers, redirect: 'manual' }));

describe('the Worker', () => {
  it('answers /healthz with the hub id and schema version, without a token', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { hubId: string; schemaVersion: number };
    expect(body.hubId).toMatch(/^hub_[0-9a-f]{32}$/);
    expect(body.schemaVersion).toBeGreaterThanOrEqual(2);
    // One HubObject per hub: the id is stable across requests.
    expect(((await (await get('/healthz')).json()) as { hubId: string }).hubId).toBe(body.hubId);
  });

  it('answers 401 on /mcp without a token, or with a wrong one, naming where to get one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: WORKERS_TEST_TOKEN },
    ];
    for (const headers of attempts) {
      const response = await get('/mcp', headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer .*resource_metadata="https:\/\/hub\.example\/\.well-known\/oauth-protected-resource\/mcp"/,
      );
      expect(await response.text()).not.toContain(WORKERS_TEST_TOKEN);
    }
  });

  it('never lets the self-hosting token open a page: pages need a sign-in', async () => {
    const response = await get('/nowhere', { authorization: `Bearer ${WORKERS_TEST_TOKEN}` });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?next=%2Fnowhere');
  });
});
