/**
 * The Sources routes: `GET /sources` lists every source; `GET /sources/:namespace` shows one
 * with the review of its new and changed tools; `POST /sources/:namespace/review` records the
 * person's choices through `Sources.acceptReview`, as `capabilities hub review` does, then sends
 * the browser back to the source's page (303).
 *
 * Only a dashboard session reaches these pages (a session opened by one run's approval link does
 * not: 403). A POST is checked before anything is read or recorded: the session's CSRF token,
 * then the form against what waits for review now (review-form.ts). A refusal is a page with its
 * status and nothing recorded.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SecretDelivery } from '../engine/contracts/connections.ts';
import { ConnectionName } from '../engine/contracts/names.ts';
import type { SourceSummary } from '../engine/desk/index.ts';
import { isHubError } from '../engine/errors.ts';
import type { Sources } from '../engine/sources/sources.ts';
import type { DashboardDeps } from './dashboard.tsx';
import { page } from './frame.tsx';
import { outOfDashboard, problem } from './reach.tsx';
import { readReviewForm } from './review-form.ts';
import { checkCsrf, type DashboardEnv } from './session.ts';
import { line } from './shown.ts';
import { sourceChangeRoutes } from './source-change-routes.tsx';
import { SourceReviewPage } from './source-review-page.tsx';
import { SourcesPage } from './sources-page.tsx';

/** What the Sources pages need of the engine's `Sources` (the host passes `engine.sources`). */
export type SourceReview = Pick<
  Sources,
  'pendingReview' | 'acceptReview' | 'saveCredential' | 'setRule' | 'removeSource'
>;

/** A review form is a token, a choice and two fields per tool: 64 KB holds hundreds of tools. */
const FORM_LIMIT_BYTES = 64 * 1024;

type Ctx = Context<DashboardEnv>;

/** Back to the source's page, relative to `/sources/:namespace/review`. */
const pageOf = (namespace: string) => `../${encodeURIComponent(namespace)}`;

export function sourceRoutes(app: Hono<DashboardEnv>, deps: DashboardDeps, review: SourceReview): void {
  const { desk } = deps;
  connectionRoute(app, deps, review);
  sourceChangeRoutes(app, deps, review);

  app.get('/sources', async (c) => {
    const refused = outOfDashboard(c, 'the sources or review them');
    if (refused) return refused;
    // Drafts left past their lifetime go with their credentials whenever the list is shown.
    await deps.adding?.sweep();
    const removed = deps.desk.sources
      .history({ limit: 50 })
      .filter((event) => event.change.kind === 'removed');
    return page(
      c,
      <SourcesPage sources={desk.sources.list()} canAdd={deps.adding !== undefined} removed={removed} />,
    );
  });

  app.get('/sources/:namespace', (c) => {
    const namespace = c.req.param('namespace');
    const refused = outOfDashboard(c, 'the sources or review them');
    if (refused) return refused;
    const summary = summaryOf(deps, namespace);
    if (!summary) return noSuchSource(c, namespace, '../sources');
    return page(
      c,
      <SourceReviewPage
        summary={summary}
        items={pendingOf(review, summary)}
        csrf={c.get('session').csrf}
        action={`${encodeURIComponent(namespace)}/review`}
        connectionAction={`${encodeURIComponent(namespace)}/connection`}
        rules={desk.sources.rules(namespace)}
        history={deps.desk.sources.history({ namespace })}
        signInAction={deps.signIns ? `${encodeURIComponent(namespace)}/sign-in` : undefined}
      />,
    );
  });

  app.post(
    '/sources/:namespace/review',
    bodyLimit({
      maxSize: FORM_LIMIT_BYTES,
      onError: (c) =>
        problem(c as Ctx, {
          status: 413,
          title: 'Not a review',
          what: 'The request was far larger than a review form; nothing was recorded.',
          next: 'Reload the source’s page and review again.',
        }),
    }),
    async (c) => {
      const namespace = c.req.param('namespace');
      const back = { href: pageOf(namespace), label: 'Back to the source' };
      const refused = outOfDashboard(c, 'the sources or review them');
      if (refused) return refused;
      const form = await c.req.parseBody();
      if (!checkCsrf(c.get('session'), form.csrf)) {
        return problem(c, {
          status: 403,
          title: 'Review refused',
          what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was recorded.',
          next: `Reload the source’s page and review there; if that fails too, ${c.get('wording').openDashboard}.`,
          back,
        });
      }
      const summary = summaryOf(deps, namespace);
      if (!summary) return noSuchSource(c, namespace, '../../sources');
      const read = readReviewForm(form, pendingOf(review, summary));
      if (read.kind === 'invalid') {
        return problem(c, {
          status: 400,
          title: 'Not a review of this source',
          what: `${line(read.what)} Nothing was recorded.`,
          next: 'Go back to the source’s page and review the tools it lists.',
          back,
        });
      }
      if (read.kind === 'stale') return changedMeanwhile(c, namespace, read.addresses.join(', '));
      try {
        review.acceptReview(namespace, read.effects, read.shown, c.get('session').who);
      } catch (error) {
        if (!isHubError(error, 'conflict')) throw error;
        return changedMeanwhile(c, namespace, [...read.effects.keys()].join(', '));
      }
      return c.redirect(pageOf(namespace), 303);
    },
  );
}

/** A credential a person entered on the source's page, kept for one of its connections. */
function connectionRoute(app: Hono<DashboardEnv>, deps: DashboardDeps, review: SourceReview): void {
  app.post('/sources/:namespace/connection', bodyLimit({ maxSize: 16 * 1024 }), async (c) => {
    const namespace = c.req.param('namespace');
    const back = { href: pageOf(namespace), label: 'Back to the source' };
    const refused = outOfDashboard(c, 'the sources or enter their credentials');
    if (refused) return refused;
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) {
      return problem(c, {
        status: 403,
        title: 'Credential refused',
        what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was kept.',
        next: `Reload the source’s page and enter it there; if that fails too, ${c.get('wording').openDashboard}.`,
        back,
      });
    }
    const summary = summaryOf(deps, namespace);
    if (!summary) return noSuchSource(c, namespace, '../../sources');
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
    const connection = text('connection') || 'default';
    const delivery =
      summary.source.kind !== 'mcp-stdio'
        ? ({ kind: 'header', name: text('header') || 'Authorization', scheme: text('scheme') } as const)
        : ({ kind: 'env', variable: text('env') } as const);
    const parsed = SecretDelivery.safeParse(delivery);
    const named = ConnectionName.safeParse(connection);
    if (!parsed.success || !named.success) {
      return problem(c, {
        status: 400,
        title: 'Not a credential this hub can keep',
        what: !named.success
          ? `${line(connection)} is not a connection name (lowercase letters, digits, - and _); nothing was kept.`
          : 'The header name or the environment variable is not one a server can be given; nothing was kept.',
        next: 'Go back and correct it.',
        back,
      });
    }
    const secret = typeof form.secret === 'string' ? form.secret : '';
    try {
      await review.saveCredential(namespace, connection, parsed.data, secret);
    } catch (error) {
      if (!isHubError(error)) throw error;
      return problem(c, {
        status: error.code === 'invalid_input' ? 400 : 500,
        title: 'The credential was not kept',
        what: line(error.message),
        next: 'Go back and enter it again.',
        back,
      });
    }
    return c.redirect(pageOf(namespace), 303);
  });
}

/** The source's summary as the list shows it; undefined when there is no such source. */
function summaryOf(deps: DashboardDeps, namespace: string): SourceSummary | undefined {
  return deps.desk.sources.list().find((summary) => summary.source.namespace === namespace);
}

/** What waits for review: nothing before the source's first tool list. */
function pendingOf(review: SourceReview, summary: SourceSummary) {
  return summary.listedAt === null ? [] : review.pendingReview(summary.source.namespace);
}

/** 404 for an unknown namespace; `list` is the list's address relative to the request. */
function noSuchSource(c: Ctx, namespace: string, list: string) {
  return problem(c, {
    status: 404,
    title: 'No such source',
    what: `This hub has no source ${line(namespace)}; nothing was recorded.`,
    next: 'Go to the list of sources and pick one there.',
    back: { href: list, label: 'All sources' },
  });
}

function changedMeanwhile(c: Ctx, namespace: string, addresses: string) {
  return problem(c, {
    status: 409,
    title: 'Changed since you saw it',
    what: `The contract of ${line(addresses)} changed after the page showed it, so your choices would cover something you did not see; nothing was recorded.`,
    next: 'Go back to the source’s page: it shows the tools as they are now, to review again.',
    back: { href: pageOf(namespace), label: 'Back to the source' },
  });
}
