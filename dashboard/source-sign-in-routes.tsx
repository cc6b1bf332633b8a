/**
 * Signing the hub in to a source that asks for OAuth, from the dashboard, where the host can
 * (the hosted hub: engine/sources/source-sign-in.ts): Add a source sends the browser to the
 * source's authorization server when the server answers that it needs a sign-in
 * (`startAddSignIn`, called by source-add-routes.tsx: a page whose link goes there, since a form
 * may lead only back to the hub); `POST /sources/:namespace/sign-in` does the same for a
 * source's connection (Sign in again, on the source's page); and
 * `GET /sources/oauth/callback` is where the browser comes back. The callback finishes the
 * sign-in its `state` names only for the person who started it, once, within its lifetime; a
 * new source's grant becomes a draft to review (the same review as any added source), a
 * connection's replaces its grant. Every POST checks the session's CSRF token first; no page
 * carries a token, and the callback answers with a redirect (303) so a reload redeems nothing.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ConnectionName } from '../engine/contracts/names.ts';
import { isHubError } from '../engine/errors.ts';
import { SIGN_IN_PATHS } from '../engine/sources/sign-in-client.ts';
import type { SourceSignIns } from '../engine/sources/source-sign-in.ts';
import type { DashboardDeps } from './dashboard.tsx';
import { Layout } from './layout.tsx';
import { outOfDashboard, problem } from './reach.tsx';
import { dashboardRoot, hrefIn } from './root.ts';
import { checkCsrf, type DashboardEnv } from './session.ts';
import { line } from './shown.ts';
import { addHref } from './source-add-page.tsx';
import type { SourceAdding } from './source-add-routes.tsx';
import type { SourceReview } from './source-routes.tsx';

/** What signing in needs of the engine (the host passes its `SourceSignIns`). */
export type SourceSigningIn = Pick<SourceSignIns, 'start' | 'finish'>;

/** The callback's and the client document's paths under the dashboard's root (SIGN_IN_PATHS). */
export const SIGN_IN_CALLBACK = SIGN_IN_PATHS.callback.slice(1);
const SIGN_IN_DOCUMENT = SIGN_IN_PATHS.clientDocument.slice(1);

type Ctx = Context<DashboardEnv>;

/** The hub's own callback as an absolute URL: the origin the browser reached this page at. */
const callbackUrl = (c: Ctx) => new URL(hrefIn(dashboardRoot(c), SIGN_IN_CALLBACK), c.req.url).href;

/**
 * The hub's client ID metadata document (SEP-991), which the host serves beside the dashboard
 * (worker/index.ts): offered only over https, as the document's URL must be.
 */
const clientDocumentUrl = (c: Ctx) => {
  const url = new URL(hrefIn(dashboardRoot(c), SIGN_IN_DOCUMENT), c.req.url);
  return url.protocol === 'https:' ? url.href : undefined;
};

/**
 * The page that sends the person on to the source's authorization server: a link, since the
 * dashboard's forms may only lead back to the hub (CSP `form-action 'self'`, headers.ts), and it
 * names where the person is going before they go.
 */
function continuePage(c: Ctx, to: string, source: string) {
  const server = new URL(to).origin;
  return c.html(
    <Layout title={`Sign in to ${line(source)}`} root={dashboardRoot(c)}>
      <h1>Sign in to {line(source)}</h1>
      <p>
        {line(source)} asks for a sign-in. Its authorization server, {line(server)}, asks you to allow this
        hub; you then come back here. The hub keeps the sign-in in its secret store, encrypted, and sends its
        token to {line(source)} only.
      </p>
      <p>
        <a href={to}>Continue to {line(server)}</a>
      </p>
    </Layout>,
  );
}

/** Starts a sign-in to the server at `url` for Add a source: the page that sends the browser there. */
export async function startAddSignIn(c: Ctx, signIns: SourceSigningIn, url: string) {
  const to = await signIns.start({
    url,
    who: c.get('session').who,
    purpose: { kind: 'add' },
    redirectUrl: callbackUrl(c),
    clientMetadataUrl: clientDocumentUrl(c),
  });
  return continuePage(c, to, new URL(url).origin);
}

export function sourceSignInRoutes(
  app: Hono<DashboardEnv>,
  deps: DashboardDeps,
  signIns: SourceSigningIn,
  review: SourceReview,
  adding: SourceAdding | undefined,
): void {
  app.get(`/${SIGN_IN_CALLBACK}`, async (c) => {
    const refused = outOfDashboard(c, 'a sign-in to a source');
    if (refused) return refused;
    const root = dashboardRoot(c);
    const query = (name: string) => c.req.query(name);
    let finished: Awaited<ReturnType<SourceSigningIn['finish']>>;
    try {
      finished = await signIns.finish({
        state: query('state'),
        code: query('code'),
        iss: query('iss'),
        error: query('error'),
        errorDescription: query('error_description'),
        who: c.get('session').who,
      });
    } catch (error) {
      if (!isHubError(error)) throw error;
      return problem(c, {
        status: error.code === 'denied' ? 400 : 502,
        title: 'Not signed in',
        what: line(error.message),
        next: 'Start the sign-in again from Add a source, or from the source’s page.',
        back: { href: hrefIn(root, 'sources'), label: 'Sources' },
      });
    }
    const { purpose, grant, url } = finished;
    try {
      if (purpose.kind === 'again') {
        await review.saveCredential(
          purpose.namespace,
          purpose.connection,
          { kind: 'oauth' },
          JSON.stringify(grant),
        );
        return c.redirect(hrefIn(root, `sources/${encodeURIComponent(purpose.namespace)}`), 303);
      }
      if (!adding) throw new Error('a sign-in to add a source on a hub that adds none');
      const draft = await adding.begin({ kind: 'mcp-http', url, grant });
      return c.redirect(addHref(root, encodeURIComponent(draft.record.id)), 303);
    } catch (error) {
      if (!isHubError(error)) throw error;
      return problem(c, {
        status: error.code === 'not_found' ? 404 : 502,
        title: 'Signed in, but nothing was kept',
        what: line(error.detail ? `${error.message} (${error.detail})` : error.message),
        next: 'Start again from Add a source, or from the source’s page.',
        back: { href: hrefIn(root, 'sources'), label: 'Sources' },
      });
    }
  });

  app.post('/sources/:namespace/sign-in', bodyLimit({ maxSize: 16 * 1024 }), async (c) => {
    const namespace = c.req.param('namespace');
    const refused = outOfDashboard(c, 'the sources or sign in to one');
    if (refused) return refused;
    const back = {
      href: hrefIn(dashboardRoot(c), `sources/${encodeURIComponent(namespace)}`),
      label: 'Back to the source',
    };
    const form = await c.req.parseBody();
    if (!checkCsrf(c.get('session'), form.csrf)) {
      return problem(c, {
        status: 403,
        title: 'Sign-in refused',
        what: 'The form did not carry this page session’s token, so it may not come from this page; nothing was started.',
        next: `Reload the source’s page and sign in there; if that fails too, ${c.get('wording').openDashboard}.`,
        back,
      });
    }
    const source = deps.desk.sources.list().find((s) => s.source.namespace === namespace)?.source;
    const connection = ConnectionName.safeParse(
      typeof form.connection === 'string' ? form.connection : 'default',
    );
    if (source?.kind !== 'mcp-http' || !connection.success) {
      return problem(c, {
        status: 404,
        title: 'No such source to sign in to',
        what: `This hub has no MCP server source named ${line(namespace)} with that connection; nothing was started.`,
        next: 'Go back to the sources.',
        back: { href: hrefIn(dashboardRoot(c), 'sources'), label: 'Sources' },
      });
    }
    try {
      const to = await signIns.start({
        url: source.url,
        who: c.get('session').who,
        purpose: { kind: 'again', namespace, connection: connection.data },
        redirectUrl: callbackUrl(c),
        clientMetadataUrl: clientDocumentUrl(c),
      });
      return continuePage(c, to, new URL(source.url).origin);
    } catch (error) {
      if (!isHubError(error)) throw error;
      return problem(c, {
        status: 502,
        title: 'The sign-in could not start',
        what: line(error.detail ? `${error.message} (${error.detail})` : error.message),
        next: 'Check that the source is up, then sign in again.',
        back,
      });
    }
  });
}
