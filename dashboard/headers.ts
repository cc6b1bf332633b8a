/**
 * The headers every dashboard response carries, error pages and redirects included: a strict
 * Content-Security-Policy (styles only from the page itself, forms only back to the hub, never
 * framed), no framing for old browsers, no referrer beyond the hub itself (a page's URL names a
 * run; a same-origin form must keep its real Origin, which `no-referrer` would turn into `null`),
 * and no caching (a page shows a person's pending calls).
 *
 * Two policies. A dashboard without notifications (the local hub) runs no script at all. One
 * with notifications (the hosted hub, issue #37) is an installable web app: its pages load the
 * hub's own page script (`/app.js`), register its service worker (`/sw.js`), read its manifest
 * and send the device's subscription back to the hub, and nothing else: `'self'` only, never
 * inline script or eval.
 */
import type { MiddlewareHandler } from 'hono';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The installable dashboard's policy: the strict one, plus the hub's own script, worker and manifest. */
export const APP_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** The installable dashboard's headers: the same, with APP_CONTENT_SECURITY_POLICY. */
export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': APP_CONTENT_SECURITY_POLICY,
};

/** Sets `headers` on whatever the routes (or the host's session middleware) answered. */
export const securityHeadersOf =
  (headers: Readonly<Record<string, string>>): MiddlewareHandler =>
  async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };

/** Sets the security headers of a dashboard without script (SECURITY_HEADERS). */
export const securityHeaders: MiddlewareHandler = securityHeadersOf(SECURITY_HEADERS);
