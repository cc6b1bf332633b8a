/**
 * What a page session may reach (session.ts): a session opened by one run's approval link sees
 * and decides that run alone; the inbox, the run history and the other runs need a dashboard
 * session. A request beyond the session's reach is a 403 page that says how to open the right
 * one, and nothing is read or recorded on the way.
 */
import type { Context } from 'hono';
import { page } from './frame.tsx';
import { type Problem, ProblemPage } from './problem-page.tsx';
import { dashboardRoot } from './root.ts';
import { type DashboardEnv, reachesDashboard, reachesRun } from './session.ts';

type Ctx = Context<DashboardEnv>;

/** Answers the request with the page for `p`, with its status. */
export const problem = (c: Ctx, p: Problem) =>
  page(c, <ProblemPage problem={p} root={dashboardRoot(c)} />, p.status);

/** The refusal page when the session was opened for another run; else undefined. */
export function outOfReach(c: Ctx, runId: string) {
  if (reachesRun(c.get('session'), runId)) return undefined;
  return problem(c, {
    status: 403,
    title: 'Not this page’s run',
    what: 'This page session was opened for another run’s approval, so it cannot show or decide this one; nothing was recorded.',
    next: `Open the link the hub opened for this run. For the whole dashboard, ${c.get('wording').openDashboard}.`,
  });
}

/** The refusal page when the session reaches one run only, not the whole dashboard; else undefined. */
export function outOfDashboard(c: Ctx, page: string) {
  if (reachesDashboard(c.get('session'))) return undefined;
  return problem(c, {
    status: 403,
    title: 'Not open to this page session',
    what: `This page session was opened for one run’s approval, so it cannot show ${page}.`,
    next: `Go back to the run’s own page. For the whole dashboard, ${c.get('wording').openDashboard}.`,
  });
}
