/**
 * Adding a remote source from the dashboard, through the engine's source drafts
 * (engine/sources/source-drafts.ts): `GET /sources/new` is the form; `POST /sources/new` checks
 * the URL, lists the server's tools (with the credential entered) or reads the OpenAPI document
 * (the person says which is at the URL) and shows the review, or the form again with what went
 * wrong; `GET /sources/new/:draft` shows a waiting draft's review again;
 * `POST /sources/new/:draft/confirm` stores what was shown under the namespace chosen (with a
 * document's key, when typed on the review) and sends the browser to the source's page (303);
 * `POST /sources/new/:draft/cancel` drops the draft and its credential and goes back to the list.
 *
 * Only a dashboard session reaches these routes (a run's approval session gets 403); every POST
 * checks the session's CSRF token before it reads or stores anything. No response carries the
 * credential: the form comes back without it, the review carries the draft's id alone and its
 * key fields empty.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PolicyEffect } from '../engine/contracts/policy.ts';
import { type HubError, isHubError } from '../engine/errors.ts';
import type { NewRemoteSource, OpenDraft, SourceDrafts } from '../engine/sources/source-drafts.ts';
import type { DashboardDeps } from './dashboard.tsx';
import { KEY_FIELDS } from './draft-credentials.tsx';
import { page } from './frame.tsx';
import { outOfDashboard, problem } from './reach.tsx';
import { type FormFields, readReviewForm } from './review-form.ts';
import { dashboardRoot, hrefIn } from './root.ts';
import { checkCsrf, type DashboardEnv } from './session.ts';
import { line } from './shown.ts';
import {
  type AddSourceFields,
  AddSourcePage,
  addHref,
  DEFAULT_FIELDS,
  DraftReviewPage,
} from './source-add-page.tsx';
import { startAddSignIn } from './source-sign-in-routes.tsx';

/** What adding a source needs of the engine (the host passes `engine.drafts`). */
export type SourceAdding = Pick<SourceDrafts, 'begin' | 'get' | 'confirm' | 'cancel' | 'sweep'>;

/** The add form is two URLs and a credential: 16 KB is plenty. A review form is up to 64 KB. */
const ADD_LIMIT_BYTES = 16 * 1024;
const REVIEW_LIMIT_BYTES = 64 * 1024;

type Ctx = Context<DashboardEnv>;

const PAGE = 'the sources or add one';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const tooLarge = (limit: number) =>
  bodyLimit({
    maxSize: limit,
    onError: (c) =>
      problem(c as Ctx, {
        status: 413,
        title: 'Not this page’s form',
        what: 'The request was far larger than the form; nothing was stored.',
        next: 'Go back to Add a source and try again.',
        back: { href: addHref(dashboardRoot(c)), label: 'Add a source' },
      }),
  });

export function sourceAddRoutes(app: Hono<DashboardEnv>, deps: DashboardDeps, adding: SourceAdding): void {
  const form = (c: Ctx, fields: AddSourceFields, error?: string, status: 200 | 400 | 502 = 200) =>
    page(
      c,
      <AddSourcePage
        root={dashboardRoot(c)}
        csrf={c.get('session').csrf}
        fields={fields}
        error={error}
        stdio={deps.wording.addStdioSource}
        signsIn={deps.signIns !== undefined}
      />,
      status,
    );

  app.get('/sources/new', (c) => outOfDashboard(c, PAGE) ?? form(c, DEFAULT_FIELDS));

  const review = (
    c: Ctx,
    draft: OpenDraft,
    namespace: string,
    error?: string,
    status: 200 | 400 | 409 = 200,
  ) =>
    page(
      c,
      <DraftReviewPage
        root={dashboardRoot(c)}
        csrf={c.get('session').csrf}
        draft={draft}
        namespace={namespace}
        error={error}
        signInToApi={c.get('wording').signInToApi}
      />,
      status,
    );

  app.post('/sources/new', tooLarge(ADD_LIMIT_BYTES), async (c) => {
    const refused = outOfDashboard(c, PAGE) ?? (await csrfRefused(c));
    if (refused) return refused;
    const body = await c.req.parseBody();
    const fields: AddSourceFields = {
      kind: body.kind === 'openapi' ? 'openapi' : 'mcp-http',
      url: text(body.url).trim(),
      header: text(body.header).trim() || DEFAULT_FIELDS.header,
      scheme: text(body.scheme).trim(),
      server: text(body.server).trim(),
    };
    const secret = text(body.credential).trim();
    const wrong = misplaced(fields, secret);
    if (wrong) return form(c, fields, wrong, 400);
    const request: NewRemoteSource =
      fields.kind === 'openapi'
        ? { kind: 'openapi', url: fields.url, server: fields.server || undefined }
        : {
            kind: 'mcp-http',
            url: fields.url,
            credential:
              secret === '' ? undefined : { value: secret, header: fields.header, scheme: fields.scheme },
          };
    try {
      const draft = await adding.begin(request);
      return review(c, draft, draft.record.source.namespace);
    } catch (error) {
      if (!isHubError(error)) throw error;
      // A server that asks for a sign-in, where the host can sign in: the browser goes to sign in.
      if (
        error.code === 'unauthorized' &&
        request.kind === 'mcp-http' &&
        !request.credential &&
        deps.signIns
      ) {
        try {
          return await startAddSignIn(c, deps.signIns, fields.url);
        } catch (failed) {
          if (!isHubError(failed)) throw failed;
          return form(c, fields, said(failed), failed.code === 'denied' ? 400 : 502);
        }
      }
      // The person's input (or where it points: a private address) is refused as 400; the server's failure is 502.
      const status = error.code === 'invalid_input' || error.code === 'denied' ? 400 : 502;
      return form(c, fields, said(error), status);
    }
  });

  app.get('/sources/new/:draft', (c) => {
    const refused = outOfDashboard(c, PAGE);
    if (refused) return refused;
    const draft = adding.get(c.req.param('draft'));
    if (!draft) return gone(c);
    return review(c, draft, draft.record.source.namespace);
  });

  app.post('/sources/new/:draft/confirm', tooLarge(REVIEW_LIMIT_BYTES), async (c) => {
    const refused = outOfDashboard(c, PAGE) ?? (await csrfRefused(c));
    if (refused) return refused;
    const draft = adding.get(c.req.param('draft'));
    if (!draft) return gone(c);
    const body: FormFields = await c.req.parseBody();
    const namespace = text(body.namespace).trim();
    let effects = new Map<string, PolicyEffect>();
    let shown = new Map<string, string>();
    if (draft.review.length > 0) {
      const read = readReviewForm(body, draft.review);
      if (read.kind === 'invalid') {
        return problem(c, {
          status: 400,
          title: 'Not the review of this server',
          what: `${line(read.what)} Nothing was stored.`,
          next: 'Go back to the review and confirm the tools it lists.',
          back: {
            href: addHref(dashboardRoot(c), encodeURIComponent(draft.record.id)),
            label: 'Back to the review',
          },
        });
      }
      if (read.kind === 'stale') {
        return problem(c, {
          status: 409,
          title: 'Not what you were shown',
          what: `The form named ${line(read.addresses.join(', '))} with a contract the review did not show; nothing was stored.`,
          next: 'Go back to the review and confirm there.',
          back: {
            href: addHref(dashboardRoot(c), encodeURIComponent(draft.record.id)),
            label: 'Back to the review',
          },
        });
      }
      effects = read.effects;
      shown = read.shown;
    }
    try {
      await adding.confirm(draft.record.id, namespace, effects, shown, {
        value: text(body[KEY_FIELDS.value]),
        user: text(body[KEY_FIELDS.user]),
        password: text(body[KEY_FIELDS.password]),
      });
    } catch (error) {
      if (!isHubError(error)) throw error;
      if (error.code === 'not_found') return gone(c, said(error));
      if (error.code !== 'invalid_input' && error.code !== 'conflict') throw error;
      return review(c, draft, namespace, said(error), error.code === 'conflict' ? 409 : 400);
    }
    return c.redirect(hrefIn(dashboardRoot(c), `sources/${encodeURIComponent(namespace)}`), 303);
  });

  app.post('/sources/new/:draft/cancel', tooLarge(ADD_LIMIT_BYTES), async (c) => {
    const refused = outOfDashboard(c, PAGE) ?? (await csrfRefused(c));
    if (refused) return refused;
    await adding.cancel(c.req.param('draft'));
    return c.redirect(hrefIn(dashboardRoot(c), 'sources'), 303);
  });
}

/** The 403 page when the form did not carry the session's CSRF token; else undefined. */
async function csrfRefused(c: Ctx) {
  const body = await c.req.parseBody();
  if (checkCsrf(c.get('session'), body.csrf)) return undefined;
  return problem(c, {
    status: 403,
    title: 'Refused',
    what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was stored.',
    next: `Open Add a source again and try there; if that fails too, ${c.get('wording').openDashboard}.`,
    back: { href: addHref(dashboardRoot(c)), label: 'Add a source' },
  });
}

/**
 * Why the add form's fields do not fit the kind chosen, before anything is reached; undefined
 * when they fit. A document's key is asked for on its review (the document names it); an API
 * server is a document's.
 */
function misplaced(fields: AddSourceFields, secret: string): string | undefined {
  if (fields.kind === 'openapi' && secret !== '')
    return 'An OpenAPI document names the credentials its operations take: leave the credential empty and enter the key on the next page, once the document is read. Nothing was read.';
  if (fields.kind === 'mcp-http' && fields.server !== '')
    return 'The API’s base URL is for an OpenAPI document: choose “An OpenAPI document”, or leave it empty for an MCP server. Nothing was read.';
  return undefined;
}

/** A person's line of an error: its message, and its detail (already scrubbed by the engine). */
const said = (error: HubError): string =>
  error.detail ? `${error.message} (${error.detail})` : error.message;

/** 410 for a draft that is no longer waiting: confirmed, cancelled or expired. */
function gone(c: Ctx, what?: string) {
  return problem(c, {
    status: 410,
    title: 'No longer waiting',
    what:
      what ??
      'This addition was confirmed, cancelled, or left longer than 10 minutes; nothing more was stored.',
    next: 'Add the server again to review what it offers now.',
    back: { href: addHref(dashboardRoot(c)), label: 'Add a source' },
  });
}
