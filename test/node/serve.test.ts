/** `hub serve --http` end to end: a real process on loopback, /healthz, the token and the Host check. */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import journal from '../../migrations/meta/_journal.json';
import { cli, startServe, tempHome } from './cli-process.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = tempHome());
});
afterEach(() => remove());

/** A raw HTTP GET, so the test controls the Host header (fetch would not let it). */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; keepAlive?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      const keepAlive = res.headers['keep-alive']?.toString();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, ...(keepAlive ? { keepAlive } : {}) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hub serve --http', () => {
  it('serves the hub `hub init` created, with /healthz on 127.0.0.1 without a token', async () => {
    const server = await startServe(home);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // startServe runs `hub init` first, as `npm start` does; serving itself creates nothing.
      expect(server.stderr()).not.toContain('Created the hub');
      expect(JSON.parse(readFileSync(join(home, 'hub', 'hub.json'), 'utf8')).hubId).toBe(server.hubId);
      const health = await get(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ hubId: server.hubId, schemaVersion: journal.entries.length });
      // An idle connection outlives a client's pause between tool calls (Node's default is 5 s).
      expect(health.keepAlive).toBe('timeout=120');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('answers 401 on /mcp without the token, saying where it is (never what it is), and lets the token through', async () => {
    const server = await startServe(home);
    try {
      const token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
      const file = join(home, 'hub', 'http-token');
      const without = await get(`${server.url}/mcp`);
      expect(without.status).toBe(401);
      expect(JSON.parse(without.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32001,
          message: `no bearer token; this hub takes a bearer token: send \`Authorization: Bearer <the token in ${file}>\``,
        },
      });
      const wrong = await get(`${server.url}/mcp`, { authorization: 'Bearer nope' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain('the bearer token is wrong');
      expect(wrong.body).not.toContain(token);
      // Through: the stateless MCP endpoint answers GET with 405 (it takes POST).
      expect((await get(`${server.url}/mcp`, { authorization: `Bearer ${token}` })).status).toBe(405);
    } finally {
      await server.stop();
    }
  });

  it('refuses a rebound Host or a foreign Origin', async () => {
    const server = await startServe(home);
    try {
      const port = new URL(server.url).port;
      expect((await get(`${server.url}/healthz`, { host: `evil.example:${port}` })).status).toBe(403);
      expect((await get(`${server.url}/healthz`, { host: `localhost:${port}` })).status).toBe(200);
      expect((await get(`${server.url}/healthz`, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await get(`${server.url}/healthz`, { origin: `http://localhost:${port}` })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('says which port is in use and how to pick another', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      cli(home, ['hub', 'init']);
      const result = cli(home, ['hub', 'serve', '--http', '--port', String(port)]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain('--port <n>');
    } finally {
      blocker.close();
    }
  });

  it('refuses a port that is not a port', () => {
    const result = cli(home, ['hub', 'serve', '--http', '--port', 'eighty']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('a port is a whole number');
  });
});
