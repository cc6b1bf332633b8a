/**
 * The installable dashboard's public files in workerd, through the Worker entry (worker/index.ts):
 * served before the sign-in, without a cookie, as a browser fetches a manifest and a service
 * worker; the PNG icons drawn with workerd's own CompressionStream.
 */
import { describe, expect, it } from 'vitest';
import { worker } from './worker-client.ts';

const get = (path: string) => worker.fetch(new Request(`https://hub.example${path}`, { redirect: 'manual' }));

describe('the web app’s files on the Worker', () => {
  it('serves the manifest, icons and scripts to anyone, each with its type', async () => {
    const expected: [string, string][] = [
      ['/manifest.webmanifest', 'application/manifest+json'],
      ['/sw.js', 'text/javascript; charset=utf-8'],
      ['/app.js', 'text/javascript; charset=utf-8'],
      ['/icon.svg', 'image/svg+xml'],
      ['/icon-192.png', 'image/png'],
      ['/icon-512.png', 'image/png'],
    ];
    for (const [path, type] of expected) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      await response.arrayBuffer();
    }
    const manifest = (await (await get('/manifest.webmanifest')).json()) as { start_url: string };
    expect(manifest.start_url).toBe('/');
  });

  it('still sends anyone else to sign in first', async () => {
    const response = await get('/settings/notifications');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?next=%2Fsettings%2Fnotifications');
  });
});
