/**
 * The headers every dashboard response carries, error pages and redirects included: a strict
 * Content-Security-Policy (no script at all, styles only from the page itself, forms only back
 * to the hub, never framed), no framing for old browsers, no referrer beyond the hub itself (a
 * page's URL names a run; a same-origin form must keep its real Origin, which `no-referrer`
 * would turn into `null`),
 * and no caching (a page shows a person's pending calls).
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

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** Sets the security headers on whatever the routes (or the host's session middleware) answered. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
};
