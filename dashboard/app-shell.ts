/**
 * The installable dashboard's public files (issue #37): the web app manifest, its icons, the
 * service worker and the page script (app-scripts.ts). A browser fetches a manifest and a service
 * worker without the person's cookies, so these are static and public, served before any sign-in
 * (the hosted Worker mounts `appShellRoutes` beside `/healthz`, worker/index.ts); none says
 * anything about a person or their hub. The dashboard links them only on a host with
 * notifications (layout.tsx); the local hub serves none of them.
 */
import { Hono } from 'hono';
import { PAGE_SCRIPT, SERVICE_WORKER } from './app-scripts.ts';
import { ICON_BACKGROUND, ICON_FOREGROUND, ICON_SHAPE, iconPng } from './png-icon.ts';

/** Where each file is: at the origin's root, as a service worker scoped to `/` must be. */
export const APP_PATHS = {
  manifest: '/manifest.webmanifest',
  serviceWorker: '/sw.js',
  pageScript: '/app.js',
  iconSvg: '/icon.svg',
  icon192: '/icon-192.png',
  icon512: '/icon-512.png',
} as const;

/** The browser's colour for the app's bar: the icon's background. */
export const THEME_COLOR = ICON_BACKGROUND;
/** The splash screen's background: the dashboard's light page colour (layout.tsx). */
const BACKGROUND_COLOR = '#fdfdfd';

export const MANIFEST = {
  id: '/',
  name: 'capabilities',
  short_name: 'capabilities',
  description: 'Decide what your agents may do, and be told when a call waits for you.',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: APP_PATHS.iconSvg, sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    { src: APP_PATHS.icon192, sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: APP_PATHS.icon512, sizes: '512x512', type: 'image/png', purpose: 'any' },
    // Full-bleed with the shape inside the middle 80%: the same image serves as a maskable icon.
    { src: APP_PATHS.icon512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
} as const;

const SIDE = 512;
const px = (fraction: number) => Math.round(fraction * SIDE);

/** The icon as SVG: the drawing png-icon.ts renders, a disc inside a ring. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIDE} ${SIDE}">
<rect width="${SIDE}" height="${SIDE}" fill="${ICON_BACKGROUND}"/>
<circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${px(ICON_SHAPE.disc)}" fill="${ICON_FOREGROUND}"/>
<circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${px(ICON_SHAPE.ring)}" fill="none"
 stroke="${ICON_FOREGROUND}" stroke-width="${px(2 * ICON_SHAPE.halfWidth)}"/>
</svg>
`;

/** Headers every file here carries: its type, never sniffed, and no power to run anything it names. */
const fileHeaders = (type: string, cache: string): Record<string, string> => ({
  'content-type': type,
  'cache-control': cache,
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; img-src 'self'",
  'referrer-policy': 'same-origin',
});

/** Scripts are fetched again on every change (a deploy), images and the manifest kept an hour. */
const SCRIPT_CACHE = 'no-cache';
const FILE_CACHE = 'public, max-age=3600';

/** One PNG per size, drawn on first request and kept for the isolate's life. */
const pngs = new Map<number, Promise<Uint8Array<ArrayBuffer>>>();
const pngOf = (size: number) => {
  let png = pngs.get(size);
  if (!png) {
    png = iconPng(size);
    pngs.set(size, png);
  }
  return png;
};

/** The public files' routes, for the host to mount at its root before its sign-in. */
export function appShellRoutes(): Hono {
  const app = new Hono();
  app.get(APP_PATHS.manifest, () =>
    respond(JSON.stringify(MANIFEST), fileHeaders('application/manifest+json', FILE_CACHE)),
  );
  app.get(APP_PATHS.serviceWorker, () =>
    respond(SERVICE_WORKER, fileHeaders('text/javascript; charset=utf-8', SCRIPT_CACHE)),
  );
  app.get(APP_PATHS.pageScript, () =>
    respond(PAGE_SCRIPT, fileHeaders('text/javascript; charset=utf-8', SCRIPT_CACHE)),
  );
  app.get(APP_PATHS.iconSvg, () => respond(ICON_SVG, fileHeaders('image/svg+xml', FILE_CACHE)));
  for (const [path, size] of [
    [APP_PATHS.icon192, 192],
    [APP_PATHS.icon512, 512],
  ] as const) {
    app.get(path, async () => respond(await pngOf(size), fileHeaders('image/png', FILE_CACHE)));
  }
  return app;
}

const respond = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) =>
  new Response(body, { status: 200, headers });
