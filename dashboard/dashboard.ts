/**
 * The dashboard: one Hono sub-app the host mounts in the one Hono app (design: Layout). It reads
 * and decides only through the engine (its desk; the review of sources through `Sources`, as the
 * CLI's `hub review` does), takes time from the hub's clock, and trusts the host for who is at
 * the browser: the host's session middleware runs first on every route (see session.ts). Every
 * response carries the security headers (headers.ts), refusals included.
 */
import { Hono } from 'hono';
import type { Desk } from '../engine/desk/index.ts';
import type { Clock } from '../engine/ports.ts';
import { approvalRoutes } from './approval-routes.tsx';
import { securityHeaders } from './headers.ts';
import type { DashboardEnv, SessionMiddleware } from './session.ts';
import { type SourceReview, sourceRoutes } from './source-routes.tsx';

export type { DashboardEnv, PageSession, SessionMiddleware } from './session.ts';

export interface DashboardDeps {
  /** The engine's desk (`engine.desk`): runs, open inputs, decisions. */
  desk: Desk;
  clock: Clock;
  /** The host's middleware: sets `session` for a person it knows, else answers the request itself. */
  session: SessionMiddleware;
  /**
   * The review of sources (`engine.sources`): with it the dashboard serves the Sources pages,
   * `/sources…`; a host without it serves none.
   */
  review?: SourceReview;
}

/**
 * The dashboard's routes: `GET /runs/:runId` (the approval page), `POST /runs/:runId/decide`;
 * with `review`, `GET /sources`, `GET /sources/:namespace`, `POST /sources/:namespace/review`.
 */
export function createDashboard(deps: DashboardDeps): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.use('*', securityHeaders);
  app.use('*', deps.session);
  approvalRoutes(app, deps);
  if (deps.review) sourceRoutes(app, deps, deps.review);
  return app;
}
