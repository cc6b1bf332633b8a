/**
 * The routes that change a source from its page: `POST /sources/:namespace/rule` sets one tool's
 * rule (`address`, `contract` as shown, `rule` = allow, ask, deny or default) through
 * `Sources.setRule`, then 303 back to the source's page; `GET /sources/:namespace/remove` shows
 * what removal takes with it (source-remove-page.tsx) and `POST /sources/:namespace/remove`
 * removes it through `Sources.removeSource`, as `capabilities hub remove` does (its secrets go
 * with it), then 303 to the list. Each change is recorded in the source's history as the
 * session's person's.
 *
 * Only a dashboard session reaches them (403 for one run's). A POST checks the session's CSRF
 * token before anything is read or changed (the host checked its Origin before the dashboard);
 * a refusal is a page with its status, what happened and what to do next, and nothing changed.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isHubError } from '../engine/errors.ts';
import type { ToolRuleChoice } from '../engine/sources/source-changes.ts';
import type { DashboardDeps } from './dashboard.tsx';
import { page } from './frame.tsx';
import { outOfDashboard, problem } from './reach.tsx';
import { dashboardRoot } from './root.ts';
import { checkCsrf, type DashboardEnv } from './session.ts';
import { line } from './shown.ts';
import { RemoveSourcePage } from './source-remove-page.tsx';
import type { SourceReview } from './source-routes.tsx';
import { RULES } from './source-rules.tsx';

type Ctx = Context<DashboardEnv>;

/** A rule form is a token, an address, a contract and a choice; a removal a token. */
const FORM_LIMIT_BYTES = 8 * 1024;
const CHOICES = new Set<string>(RULES.map((choice) => choice.rule));

/** Back to the source's page, relative to `/sources/:namespace/<action>`. */
const pageOf = (namespace: string) => `../${encodeURIComponent(namespace)}`;

export function sourceChangeRoutes(app: Hono<DashboardEnv>, deps: DashboardDeps, review: SourceReview): void {
  const tooLarge = bodyLimit({
    maxSize: FORM_LIMIT_BYTES,
    onError: (c) =>
      problem(c as Ctx, {
        status: 413,
        title: 'Not a form of this page',
        what: 'The request was far larger than the form; nothing was changed.',
        next: 'Reload the source’s page and try again.',
      }),
  });

  app.post('/sources/:namespace/rule', tooLarge, async (c) => {
    const namespace = c.req.param('namespace');
    const back = { href: pageOf(namespace), label: 'Back to the source' };
    const refused = outOfDashboard(c, 'the sources or change their rules');
    if (refused) return refused;
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) return csrfRefused(c, 'Rule not changed', back);
    if (!exists(deps, namespace)) return noSuchSource(c, namespace);
    const { address, contract, rule } = form;
    const tools = deps.desk.sources.rules(namespace).map((row) => row.tool.address);
    if (typeof address !== 'string' || !tools.includes(address) || typeof contract !== 'string') {
      return problem(c, {
        status: 400,
        title: 'Not a tool of this source',
        what: `The form named no tool ${line(namespace)} has now; nothing was changed.`,
        next: 'Go back to the source’s page and set the rule of a tool it lists.',
        back,
      });
    }
    if (typeof rule !== 'string' || !CHOICES.has(rule)) {
      return problem(c, {
        status: 400,
        title: 'Not a rule',
        what: `The choice for ${line(address)} is not one of Default, Allow, Ask or Deny; nothing was changed.`,
        next: 'Go back to the source’s page and pick one of the four.',
        back,
      });
    }
    try {
      review.setRule(namespace, address, rule as ToolRuleChoice, contract, c.get('session').who);
    } catch (error) {
      if (!isHubError(error, 'conflict')) throw error;
      return problem(c, {
        status: 409,
        title: 'Changed since you saw it',
        what: `The contract of ${line(address)} changed after the page showed it, so the rule would pin to something you did not see; nothing was changed.`,
        next: 'Go back to the source’s page: it shows the tool as it is now, to set its rule again.',
        back,
      });
    }
    return c.redirect(pageOf(namespace), 303);
  });

  app.get('/sources/:namespace/remove', async (c) => {
    const namespace = c.req.param('namespace');
    const refused = outOfDashboard(c, 'the sources or remove one');
    if (refused) return refused;
    if (!exists(deps, namespace)) return noSuchSource(c, namespace);
    const { removal, stamp } = await deps.desk.sources.shownRemoval(namespace);
    return page(
      c,
      <RemoveSourcePage
        removal={removal}
        shown={stamp}
        csrf={c.get('session').csrf}
        root={dashboardRoot(c)}
      />,
    );
  });

  app.post('/sources/:namespace/remove', tooLarge, async (c) => {
    const namespace = c.req.param('namespace');
    const back = { href: 'remove', label: 'Back to the removal' };
    const refused = outOfDashboard(c, 'the sources or remove one');
    if (refused) return refused;
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) return csrfRefused(c, 'Source not removed', back);
    if (form.confirm !== 'remove') {
      return problem(c, {
        status: 400,
        title: 'Not confirmed',
        what: `The form did not confirm the removal of ${line(namespace)}; nothing was removed.`,
        next: 'Go back to the removal page, read what it takes with it, and press Remove there.',
        back,
      });
    }
    if (!exists(deps, namespace)) return noSuchSource(c, namespace);
    // The person confirms what the page showed: a source that would now take more (or less) with
    // it is not removed on that confirm.
    if ((await deps.desk.sources.shownRemoval(namespace)).stamp !== form.shown) {
      return problem(c, {
        status: 409,
        title: 'Changed since you looked',
        what: `What removing ${line(namespace)} takes with it changed since the removal page was shown (a connection, rule, approval or waiting run); nothing was removed.`,
        next: 'Go back to the removal page: it shows what removal takes now, to confirm again.',
        back,
      });
    }
    await review.removeSource(namespace, c.get('session').who);
    return c.redirect('../../sources', 303);
  });
}

const exists = (deps: DashboardDeps, namespace: string) => deps.desk.sources.namespaces().includes(namespace);

function csrfRefused(c: Ctx, title: string, back: { href: string; label: string }) {
  return problem(c, {
    status: 403,
    title,
    what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was changed.',
    next: `Reload the source’s page and try there; if that fails too, ${c.get('wording').openDashboard}.`,
    back,
  });
}

/** 404 for an unknown namespace (removed meanwhile, or never one of this hub's). */
function noSuchSource(c: Ctx, namespace: string) {
  return problem(c, {
    status: 404,
    title: 'No such source',
    what: `This hub has no source ${line(namespace)} (removed meanwhile, or never added); nothing was changed.`,
    next: 'Go to the list of sources and pick one there.',
    back: { href: '../../sources', label: 'All sources' },
  });
}
