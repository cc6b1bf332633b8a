/**
 * The decide route: `POST /runs/:runId/decide` records one decision through the desk
 * (`desk.runs.decide`, the person-input module behind it) with channel `approval page`, in the
 * session's name, lets the host go on with the run (`decided`: a one-call run waiting on no one
 * more is resumed, so its call is made), and sends the browser back to the page the form came from (303): the run's
 * page, which then shows what was decided, or the inbox (back.ts: a name, never a URL).
 *
 * A POST is checked before anything is read or recorded: the session's reach and CSRF token, a
 * `back` of the two, a choice of the four, a run that exists and waits, a call of this run still
 * open. A refusal is a page that says what happened and what to do, with its status code, and
 * nothing recorded.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type DecisionChoice, DecisionChoice as DecisionChoiceSchema } from '../engine/contracts/runs.ts';
import { isHubError } from '../engine/errors.ts';
import { type Back, backOf } from './back.ts';
import type { DashboardDeps } from './dashboard.tsx';
import { outOfReach, problem } from './reach.tsx';
import { dashboardRoot } from './root.ts';
import { checkCsrf, type DashboardEnv } from './session.ts';
import { line } from './shown.ts';

/** A form is a pending id, a choice, a token and a page name: anything near this size is not one. */
const FORM_LIMIT_BYTES = 8 * 1024;

type Ctx = Context<DashboardEnv>;

/** Back to the run's page, relative to `/runs/:runId/decide`, wherever the host mounts the dashboard. */
const pageOf = (runId: string) => `../${encodeURIComponent(runId)}`;

/** Where a decision on `runId` returns to, and the link a refusal offers back there. */
function returnTo(c: Ctx, runId: string, back: Back) {
  return back === 'inbox'
    ? { href: dashboardRoot(c), label: 'Back to the inbox' }
    : { href: pageOf(runId), label: 'Back to the run' };
}

export function approvalRoutes(app: Hono<DashboardEnv>, deps: DashboardDeps): void {
  const { desk } = deps;

  app.post(
    '/runs/:runId/decide',
    bodyLimit({
      maxSize: FORM_LIMIT_BYTES,
      onError: (c) =>
        problem(c as Ctx, {
          status: 413,
          title: 'Not a decision',
          what: 'The request was far larger than a decision form; nothing was decided.',
          next: 'Reload the page and choose again.',
        }),
    }),
    async (c) => {
      const runId = c.req.param('runId');
      const unreached = outOfReach(c, runId);
      if (unreached) return unreached;
      const form = await c.req.parseBody();
      const page = backOf(form.back);
      const back = returnTo(c, runId, page ?? 'run');
      if (!checkCsrf(c.get('session'), form.csrf)) {
        return problem(c, {
          status: 403,
          title: 'Decision refused',
          what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was decided.',
          next: 'Open the run’s page again from its link and choose there.',
          back,
        });
      }
      if (page === undefined) {
        return problem(c, {
          status: 400,
          title: 'Not a decision form',
          what: 'The form named a page to return to that the dashboard does not have; nothing was decided.',
          next: 'Go back to the run’s page and press one of its four buttons.',
          back,
        });
      }
      const choice = DecisionChoiceSchema.safeParse(form.choice);
      if (!choice.success) {
        return problem(c, {
          status: 400,
          title: 'Not a choice',
          what: 'A decision is one of Allow once, Allow for this run, Always allow or Deny; nothing was decided.',
          next: 'Go back to the run’s page and press one of its four buttons.',
          back,
        });
      }
      const refused = waitingRun(c, deps, runId);
      if (refused) return refused;
      const pendingId = typeof form.pendingId === 'string' ? form.pendingId : '';
      const stillOpen = desk.runs.openInputs(runId).some((input) => input.id === pendingId);
      if (!stillOpen) return notOpen(c, deps, runId, pendingId, back);
      return await decide(c, deps, { runId, pendingId, choice: choice.data, page });
    },
  );
}

/**
 * Records the decision, lets the host go on with the run (a one-call run is made now), and sends
 * the browser back to its page; a refusal becomes its page.
 */
async function decide(
  c: Ctx,
  deps: DashboardDeps,
  form: { runId: string; pendingId: string; choice: DecisionChoice; page: Back },
) {
  const { runId, pendingId, choice } = form;
  const back = returnTo(c, runId, form.page);
  try {
    deps.desk.runs.decide({ pendingId, choice, channel: 'approval page', who: c.get('session').who });
  } catch (error) {
    if (!isHubError(error) || error.code === 'internal') throw error;
    return problem(c, {
      status: error.code === 'not_found' ? 404 : error.code === 'denied' ? 410 : 409,
      title: 'Not decided',
      what: line(error.message),
      next: 'Go back to the run’s page to see what it still waits on.',
      back,
    });
  }
  // Recorded whatever comes of going on: the run's page shows how it stands.
  await deps.decided?.(runId).catch(() => undefined);
  return c.redirect(back.href, 303);
}

/** The refusal page when `runId` is unknown (404) or not waiting for a person (409); else undefined. */
function waitingRun(c: Ctx, deps: DashboardDeps, runId: string) {
  try {
    const run = deps.desk.runs.get(runId);
    if (run.status === 'awaiting_input') return undefined;
    return problem(c, {
      status: 409,
      title: `Run ${line(runId)} is not waiting`,
      what: `The run is ${run.status}: it waits for no decision, so there is nothing to decide here and nothing was recorded.`,
      next: 'If the agent still needs the call, it runs its code again and a new request asks you.',
      back: { href: pageOf(runId), label: 'The run’s page' },
    });
  } catch (error) {
    if (!isHubError(error, 'not_found')) throw error;
    return noSuchRun(c, runId);
  }
}

/** The page for a run this hub does not have (404). */
export function noSuchRun(c: Ctx, runId: string) {
  return problem(c, {
    status: 404,
    title: 'No such run',
    what: `This hub has no run ${line(runId)}; nothing was recorded.`,
    next: 'Check the link, or open the newest link the agent’s hub opened for you.',
  });
}

/** The call is not open in this run: decided meanwhile (says how), or never this run's. */
function notOpen(
  c: Ctx,
  deps: DashboardDeps,
  runId: string,
  pendingId: string,
  back: { href: string; label: string },
) {
  const earlier = deps.desk.runs.decided(runId).find(({ input }) => input.id === pendingId);
  if (earlier) {
    const { input, decision } = earlier;
    return problem(c, {
      status: 409,
      title: 'Already decided',
      what: `The call ${line(input.address)} was already decided (${decision.choice}, by ${line(decision.who)} through the ${decision.channel}); a decision is accepted once, so nothing more was recorded.`,
      next: 'Go back to the run’s page to see what it still waits on.',
      back,
    });
  }
  return problem(c, {
    status: 409,
    title: 'No such call waiting',
    what: `Run ${line(runId)} has no call ${line(pendingId)} waiting for a decision; nothing was recorded.`,
    next: 'Go back to the run’s page and decide on a call it lists.',
    back,
  });
}
