/**
 * The dashboard: one Hono sub-app the host mounts in the one Hono app (design: Layout). It reads
 * and decides only through the engine (its desk; the review of sources through `Sources`, as the
 * CLI's `hub review` does), takes time from the hub's clock, and trusts the host for who is at
 * the browser: the host's session middleware runs first on every route (see session.ts). Every
 * response carries the security headers (headers.ts), refusals included: a dashboard with
 * notifications (the hosted hub) is an installable web app whose pages run the hub's own script,
 * one without (the local hub) runs none.
 */
import { type Handler, Hono } from 'hono';
import type { Desk } from '../engine/desk/index.ts';
import type { Clock } from '../engine/ports.ts';
import type { HostWording } from '../engine/wording.ts';
import { approvalRoutes } from './approval-routes.tsx';
import { page } from './frame.tsx';
import { APP_SECURITY_HEADERS, SECURITY_HEADERS, securityHeadersOf } from './headers.ts';
import { OPEN_PATH } from './link-session.tsx';
import { type NotifySettingsDesk, notifyRoutes } from './notify-routes.tsx';
import { ProblemPage } from './problem-page.tsx';
import { runsRoutes } from './runs-routes.tsx';
import type { DashboardEnv, SessionMiddleware } from './session.ts';
import { line } from './shown.ts';
import { type SourceAdding, sourceAddRoutes } from './source-add-routes.tsx';
import { type SourceReview, sourceRoutes } from './source-routes.tsx';
import { type SourceSigningIn, sourceSignInRoutes } from './source-sign-in-routes.tsx';

export type { DashboardEnv, PageSession, SessionMiddleware } from './session.ts';

export interface DashboardDeps {
  /** The engine's desk (`engine.desk`): runs, open inputs, decisions. */
  desk: Desk;
  clock: Clock;
  /** The host's middleware: sets `session` for a person it knows, else answers the request itself. */
  session: SessionMiddleware;
  /** How a person acts on this host (engine.wording): what the pages tell a person to do next. */
  wording: HostWording;
  /**
   * The host's link exchange, served at `GET /open` before any session exists (the local hub's
   * one-time links, dashboard/link-session.tsx); a host that signs people in has none.
   */
  exchange?: Handler<DashboardEnv>;
  /**
   * The review of sources (`engine.sources`): with it the dashboard serves the Sources pages,
   * `/sources…`; a host without it serves none.
   */
  review?: SourceReview;
  /**
   * Adding remote sources from the dashboard (`engine.drafts`): with it and `review`, the
   * Sources page links to Add a source and the dashboard serves `/sources/new…`.
   */
  adding?: SourceAdding;
  /**
   * Where the host ends the person's sign-in session (`/logout` on the hosted hub): with it, every
   * page's navigation has a Sign out button posting the session's CSRF token there. A host with
   * no sign-in to end (the local hub's page sessions come from one-time links) gives none.
   */
  signOut?: string;
  /**
   * Signing the hub in to sources that ask for OAuth (engine/sources/source-sign-in.ts), where the
   * host can: with it and `review`, Add a source signs in to such a server, a source's page offers
   * Sign in again, and the dashboard serves the callback (source-sign-in-routes.tsx).
   */
  signIns?: SourceSigningIn;
  /**
   * Called with the run once a decision on it is recorded, before the page answers: the host
   * goes on with a one-call run that waits on no one now (engine/runs/one-call-resume.ts).
   */
  decided?: (runId: string) => Promise<unknown>;
  /**
   * Notifications of waiting calls (engine/desk/notify-desk.ts; the hosted hub's): with it the
   * dashboard is an installable web app (the manifest, the page script, app-shell.ts, which the
   * host serves), the navigation links to Notifications, and the dashboard serves their settings
   * (notify-routes.tsx). A host without it (the local hub) runs no script on its pages.
   */
  notify?: NotifySettingsDesk;
}

/**
 * The dashboard's routes: `GET /open` (the host's link exchange, when it has one), `GET /` (the
 * inbox), `GET /runs` (the history), `GET /runs/:runId` (a run's page: its approval forms while
 * it waits, its timeline), `POST /runs/:runId/decide`; with `review`, `GET /sources`, `GET
 * /sources/:namespace`, `POST /sources/:namespace/review`; with `review` and `adding`, `GET|POST
 * /sources/new`, `GET /sources/new/:draft`, `POST /sources/new/:draft/confirm|cancel`
 * (source-add-routes.tsx); with `review` and `signIns`, `GET /sources/oauth/callback` and
 * `POST /sources/:namespace/sign-in` (source-sign-in-routes.tsx); with `notify`, `GET
 * /settings/notifications` and its POSTs (notify-routes.tsx). Any other path is a 404 page.
 */
export function createDashboard(deps: DashboardDeps): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  const { notify } = deps;
  app.use('*', securityHeadersOf(notify ? APP_SECURITY_HEADERS : SECURITY_HEADERS));
  app.use('*', async (c, next) => {
    c.set('wording', deps.wording);
    if (deps.signOut) c.set('signOut', deps.signOut);
    if (notify) c.set('waiting', () => notify.waiting());
    await next();
  });
  if (deps.exchange) app.get(OPEN_PATH, deps.exchange);
  app.use('*', deps.session);
  runsRoutes(app, deps);
  approvalRoutes(app, deps);
  // Before the sources' own pages, so `/sources/new` is the form and never a namespace.
  if (deps.review && deps.signIns) sourceSignInRoutes(app, deps, deps.signIns, deps.review, deps.adding);
  if (deps.review && deps.adding) sourceAddRoutes(app, deps, deps.adding);
  if (deps.review) sourceRoutes(app, deps, deps.review);
  if (notify) notifyRoutes(app, notify);
  app.notFound((c) =>
    page(
      c,
      <ProblemPage
        problem={{
          status: 404,
          title: 'No such page',
          what: `This hub has no page at ${line(c.req.path)}.`,
          next: 'Go back to the page the hub opened for you.',
        }}
      />,
      404,
    ),
  );
  return app;
}
