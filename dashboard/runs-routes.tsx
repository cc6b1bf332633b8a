/**
 * The pages that read runs, through the desk alone: `GET /` the inbox (runs waiting for a
 * person, decidable in place), `GET /runs` the history, `GET /runs/:runId` a run's page (its
 * approval forms while it waits, and always its timeline). The inbox and the history need a
 * dashboard session; a run's page, a session that reaches the run (reach.tsx).
 */
import type { Hono } from 'hono';
import type { PendingInput, Run } from '../engine/contracts/runs.ts';
import { isHubError } from '../engine/errors.ts';
import { noSuchRun } from './approval-routes.tsx';
import type { DashboardDeps } from './dashboard.tsx';
import { page } from './frame.tsx';
import { InboxPage } from './inbox-page.tsx';
import { outOfDashboard, outOfReach } from './reach.tsx';
import { dashboardRoot } from './root.ts';
import { RunPage } from './run-page.tsx';
import { RunsPage } from './runs-page.tsx';
import type { DashboardEnv } from './session.ts';
import { timelineOf } from './timeline-model.ts';

/** How many runs the history and the inbox list at most, newest first. */
export const RUNS_LISTED = 100;

export function runsRoutes(app: Hono<DashboardEnv>, deps: DashboardDeps): void {
  const { desk, clock } = deps;

  app.get('/', (c) => {
    const refused = outOfDashboard(c, 'the inbox');
    if (refused) return refused;
    const listed = desk.runs.list('awaiting_input', RUNS_LISTED + 1);
    const runs = listed.slice(0, RUNS_LISTED);
    const withOpen = runs.map((run) => ({ run, open: openOf(deps, run) }));
    const waiting = withOpen.filter(({ open }) => open.length > 0);
    return page(
      c,
      <InboxPage
        waiting={waiting}
        decided={withOpen.length - waiting.length}
        cut={listed.length > RUNS_LISTED}
        now={clock.now()}
        csrf={c.get('session').csrf}
        root={dashboardRoot(c)}
        signInAgain={c.get('wording').signInAgain}
      />,
    );
  });

  app.get('/runs', (c) => {
    const refused = outOfDashboard(c, 'the history of runs');
    if (refused) return refused;
    const listed = desk.runs.list(undefined, RUNS_LISTED + 1);
    const runs = listed.slice(0, RUNS_LISTED).map((run) => ({
      run,
      calls: desk.runs.countCalls(run.id),
      decided: desk.runs.decided(run.id),
    }));
    return page(
      c,
      <RunsPage
        runs={runs}
        limit={RUNS_LISTED}
        cut={listed.length > RUNS_LISTED}
        now={clock.now()}
        root={dashboardRoot(c)}
      />,
    );
  });

  app.get('/runs/:runId', (c) => {
    const runId = c.req.param('runId');
    const refused = outOfReach(c, runId);
    if (refused) return refused;
    const run = knownRun(deps, runId);
    if (!run) return noSuchRun(c, runId);
    const now = clock.now();
    const asks = desk.runs.asks(runId);
    return page(
      c,
      <RunPage
        run={run}
        open={run.status === 'awaiting_input' ? openOf(deps, run) : undefined}
        decided={asks.flatMap(({ input, decision }) => (decision ? [{ input, decision }] : []))}
        timeline={timelineOf({ run, journal: desk.runs.journal(runId), asks, now })}
        now={now}
        csrf={c.get('session').csrf}
        action={`${encodeURIComponent(runId)}/decide`}
        root={dashboardRoot(c)}
        signInAgain={c.get('wording').signInAgain}
      />,
    );
  });
}

/** The run, or undefined when this hub has none by that id. */
function knownRun(deps: DashboardDeps, runId: string): Run | undefined {
  try {
    return deps.desk.runs.get(runId);
  } catch (error) {
    if (isHubError(error, 'not_found')) return undefined;
    throw error;
  }
}

/** The run's open calls; none when it stopped waiting since it was listed (decided elsewhere). */
function openOf(deps: DashboardDeps, run: Run): PendingInput[] {
  try {
    return deps.desk.runs.openInputs(run.id);
  } catch (error) {
    if (isHubError(error, 'conflict')) return [];
    throw error;
  }
}
