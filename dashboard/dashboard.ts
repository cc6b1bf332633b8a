/**
 * The dashboard: one Hono sub-app the host mounts in the one Hono app (design: Layout). It reads
 * and decides only through the engine's desk, takes time from the hub's clock, and trusts the
 * host for who is at the browser: the host's session middleware runs first on every route (see
 * session.ts). Every response carries the security headers (headers.ts), refusals included.
 */
import { Hono } from 'hono';
import type { Desk } from '../engine/desk/index.ts';
import type { Clock } from '../engine/ports.ts';
import { approvalRoutes } from './approval-routes.tsx';
import { securityHeaders } from './headers.ts';
import { runsRoutes } from './runs-routes.tsx';
import type { DashboardEnv, SessionMiddleware } from './session.ts';

export type { DashboardEnv, PageSession, SessionMiddleware } from './session.ts';

export interface DashboardDeps {
  /** The engine's desk (`engine.desk`): runs, open inputs, decisions. */
  desk: Desk;
  clock: Clock;
  /** The host's middleware: sets `session` for a person it knows, else answers the request itself. */
  session: SessionMiddleware;
}

/**
 * The dashboard's routes: `GET /` (the inbox), `GET /runs` (the history), `GET /runs/:runId` (a
 * run's page: its approval forms while it waits, its timeline), `POST /runs/:runId/decide`.
 */
export function createDashboard(deps: DashboardDeps): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  app.use('*', securityHeaders);
  app.use('*', deps.session);
  runsRoutes(app, deps);
  approvalRoutes(app, deps);
  return app;
}
