/** The Worker entry in workerd: /healthz from the HubObject, the token on every other route. */
import { describe, expect, it } from 'vitest';
import { WORKERS_TEST_TOKEN } from './token.ts';
import { worker } from './worker-client.ts';

const get = (path: string, headers: Record<string, string> = {}) =>
  worker.fetch(new Request(`https://hub.example${path}`, { headers }));

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

  it('answers 401 with no detail on /mcp without the token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: WORKERS_TEST_TOKEN },
    ];
    for (const headers of attempts) {
      const response = await get('/mcp', headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.text()).toBe('');
    }
  });

  it('lets the token through', async () => {
    const response = await get('/nowhere', { authorization: `Bearer ${WORKERS_TEST_TOKEN}` });
    expect(response.status).toBe(404);
  });
});
