/**
 * The installable dashboard's public files (dashboard/app-shell.ts, app-scripts.ts), through the
 * routes the Worker mounts before its sign-in: the manifest is JSON with what a browser's install
 * needs; the icons are an SVG and PNGs of 192 and 512 pixels; both scripts are JavaScript that
 * parses, each with its type, no caching and nosniff. The service worker and the page script are
 * then run in a `vm` context with stand-ins for the browser's objects: a push message becomes a
 * notification tagged with its pending id that opens the run's page, and pressing it navigates a
 * window of the hub (or opens one); a page closes the notifications of calls no longer waiting.
 */
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPT, SERVICE_WORKER } from '../../dashboard/app-scripts.ts';
import { APP_PATHS, appShellRoutes } from '../../dashboard/app-shell.ts';

const ORIGIN = 'https://hub.example';
const app = appShellRoutes();
const get = (path: string) => app.request(`${ORIGIN}${path}`);

describe('the web app’s public files', () => {
  it('serves a manifest with what an install needs', async () => {
    const response = await get('/manifest.webmanifest');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/manifest+json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const manifest = JSON.parse(await response.text()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'capabilities',
      short_name: 'capabilities',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0b4f9c',
      background_color: '#fdfdfd',
    });
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.type} ${icon.purpose}`);
    expect(sizes).toEqual([
      'any image/svg+xml any',
      '192x192 image/png any',
      '512x512 image/png any',
      '512x512 image/png maskable',
    ]);
    for (const icon of manifest.icons) expect((await get(icon.src)).status).toBe(200);
  });

  it('serves the icons: an SVG, and PNGs of their own size', async () => {
    const svg = await get(APP_PATHS.iconSvg);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 512 512">/);
    for (const [path, size] of [
      [APP_PATHS.icon192, 192],
      [APP_PATHS.icon512, 512],
    ] as const) {
      const response = await get(path);
      expect(response.headers.get('content-type')).toBe('image/png');
      const png = new Uint8Array(await response.arrayBuffer());
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const view = new DataView(png.buffer, png.byteOffset);
      expect(new TextDecoder().decode(png.subarray(12, 16))).toBe('IHDR');
      expect([view.getUint32(16), view.getUint32(20)]).toEqual([size, size]);
      expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe('IEND');
      expect(png.length).toBeLessThan(16 * 1024);
    }
  });

  it('serves both scripts as JavaScript that parses, never cached without asking again', async () => {
    for (const path of [APP_PATHS.serviceWorker, APP_PATHS.pageScript]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await response.text();
      expect(() => new Script(text)).not.toThrow();
    }
    expect(await (await get(APP_PATHS.serviceWorker)).text()).toBe(SERVICE_WORKER);
  });
});

type Listener = (event: Record<string, unknown>) => void;

/** The service worker in a context of its own, with a stand-in `self`; answers what it did. */
function serviceWorker(windows: { url: string }[]) {
  const listeners = new Map<string, Listener>();
  const did: unknown[][] = [];
  const clients = windows.map((w) => ({
    url: w.url,
    navigate: async (url: string) => {
      did.push(['navigate', w.url, url]);
      return clients[0];
    },
    focus: async () => {
      did.push(['focus']);
      throw new Error('not allowed to focus');
    },
  }));
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => did.push(['skipWaiting']),
    registration: {
      showNotification: async (title: string, options: unknown) => did.push(['show', title, options]),
    },
    clients: {
      claim: async () => did.push(['claim']),
      matchAll: async () => clients,
      openWindow: async (url: string) => did.push(['open', url]),
    },
  };
  new Script(SERVICE_WORKER).runInNewContext({ self, URL });
  const fire = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { fire, did };
}

describe('the service worker', () => {
  const message = {
    title: 'Allow board.post?',
    body: 'it writes\n{"text":"hi"}',
    url: '/runs/run_a',
    tag: 'pi_1',
  };

  it('shows a push message as a notification tagged with its pending id, kept until pressed', async () => {
    const { fire, did } = serviceWorker([]);
    await fire('install', {});
    await fire('activate', {});
    await fire('push', { data: { json: () => message } });
    expect(did).toEqual([
      ['skipWaiting'],
      ['claim'],
      [
        'show',
        'Allow board.post?',
        {
          body: message.body,
          tag: 'pi_1',
          data: { url: '/runs/run_a' },
          icon: '/icon-192.png',
          requireInteraction: true,
        },
      ],
    ]);
  });

  it('on a press, closes it and takes a window of the hub to the run’s page, or opens one', async () => {
    let closed = 0;
    const notification = (url: string) => ({ data: { url }, close: () => closed++ });
    const open = serviceWorker([{ url: 'https://elsewhere.example/' }, { url: `${ORIGIN}/runs` }]);
    await open.fire('notificationclick', { notification: notification('/runs/run_a') });
    expect(open.did).toEqual([['navigate', `${ORIGIN}/runs`, `${ORIGIN}/runs/run_a`], ['focus']]);

    const none = serviceWorker([]);
    await none.fire('notificationclick', { notification: notification('/runs/run_a') });
    // A url off the hub's origin never opens: the hub's root instead.
    await none.fire('notificationclick', { notification: notification('https://evil.example/x') });
    expect(none.did).toEqual([
      ['open', `${ORIGIN}/runs/run_a`],
      ['open', `${ORIGIN}/`],
    ]);
    expect(closed).toBe(3);
  });
});

describe('the page script', () => {
  it('closes, on a page’s view, the notifications of calls no longer waiting', async () => {
    const closed: string[] = [];
    const shown = ['pi_1', 'pi_2', 'pi_3'].map((tag) => ({ tag, close: () => closed.push(tag) }));
    const registration = { getNotifications: async () => shown };
    const registered: string[] = [];
    const navigator = {
      serviceWorker: {
        register: async (url: string) => {
          registered.push(url);
          return registration;
        },
        ready: Promise.resolve(registration),
      },
    };
    const body = {
      hasAttribute: (name: string) => name === 'data-waiting',
      getAttribute: () => 'pi_2 pi_9',
    };
    const document = { body, getElementById: () => null };
    new Script(PAGE_SCRIPT).runInNewContext({ navigator, document, window: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(registered).toEqual(['/sw.js']);
    expect(closed).toEqual(['pi_1', 'pi_3']);
  });
});
