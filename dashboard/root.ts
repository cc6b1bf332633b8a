/**
 * Where the dashboard's pages are, as links: the host mounts the sub-app wherever it likes (`/`
 * on its own loopback port, or beside `/mcp`), so every link between pages is built from the
 * mount the router matched, never from anything the request carries. An `href` is thus always a
 * path on this hub: no form field or header can make one point elsewhere.
 */
import type { Context } from 'hono';
import { basePath } from 'hono/route';

/** The path the host mounted the dashboard at: `/`, or e.g. `/dashboard` (no trailing slash). */
export function dashboardRoot(c: Context): string {
  const base = basePath(c);
  return base === '' ? '/' : base;
}

/** The page at `path` (e.g. `runs`) under `root`; the root itself for an empty path. */
export function hrefIn(root: string, path: string): string {
  if (path === '') return root;
  return `${root.endsWith('/') ? root : `${root}/`}${path}`;
}

/** A run's page under `root`. */
export const runHref = (root: string, runId: string): string =>
  hrefIn(root, `runs/${encodeURIComponent(runId)}`);
