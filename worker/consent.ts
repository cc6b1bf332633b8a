/**
 * `/authorize`: an MCP client asks to reach a person's hub. The request is validated first (an
 * unknown client or an unregistered redirect URI is shown here, never redirected to); a person
 * who is not signed in signs in with GitHub (`/login?next=…`) and comes back; then a consent page
 * names the client (its name, whether that name is verified, the host its tokens go to, a
 * warning when that is this computer) and what it will reach (and, when it asks for
 * `hub:configure`, that it may change the hub's configuration), and the person allows or denies;
 * the grant carries `hub`, plus `hub:configure` only when a client on the person's computer (a
 * loopback redirect) asked for it and the page showed it.
 * Allowing completes the grant in the person's name: their stable id (`github:<numeric id>`),
 * which also names their hub. The form carries only the library's one-time handle, bound to this
 * browser by a cookie, so the page cannot be forged, replayed elsewhere or framed.
 */
import { AuthorizationError, CimdFetchError, type OAuthHelpers } from '@cloudflare/workers-oauth-provider';
import { Hono } from 'hono';
import { ConsentPage } from '../dashboard/consent-page.tsx';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../dashboard/headers.ts';
import { type Problem, ProblemPage } from '../dashboard/problem-page.tsx';
import type { HubEnv } from '../durable-objects/hub-env.ts';
import { CONFIGURE_SCOPE } from '../engine/contracts/configuration.ts';
import { AUTHORIZE_PATH, type GrantProps, grantedScopes } from './oauth.ts';

/** The person signed in at this browser, as the sign-in session knows them. */
export interface SignedInPerson {
  /** `github:<numeric id>`: stable, and the name of their hub. */
  person: string;
  /** Their GitHub login, for the page. */
  login: string;
}

/** How the consent routes learn who is signed in (the sign-in session, worker/sign-in/). */
export type SignedInReader = (request: Request, env: HubEnv) => Promise<SignedInPerson | null>;

type ConsentEnv = { Bindings: HubEnv & { OAUTH_PROVIDER: OAuthHelpers } };

/**
 * The dashboard's security headers (no script, no framing, no caching), with one addition to
 * `form-action`: the one redirect a consent form leads to (back to the client's registered
 * redirect URI) is allowed by its origin, since browsers apply `form-action` to the redirect
 * after a form, too.
 */
function formActionFor(redirectTo?: string): string {
  if (!redirectTo) return '';
  try {
    const url = new URL(redirectTo);
    return url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  } catch {
    return '';
  }
}

function page(body: string, status: number, headers?: Headers, redirectTo?: string): Response {
  const out = new Headers(headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) out.set(name, value);
  out.set('Content-Type', 'text/html; charset=utf-8');
  out.set(
    'Content-Security-Policy',
    CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self'${formActionFor(redirectTo)}`),
  );
  return new Response(`<!doctype html>${body}`, { status, headers: out });
}

const problem = (p: Problem): Response => page(String(ProblemPage({ problem: p })), p.status);

/** What went wrong in the authorization request, shown here: the client is not trusted to be redirected to. */
function rendered(error: unknown): Response {
  if (error instanceof AuthorizationError && error.redirectTo)
    return Response.redirect(error.redirectTo, 302);
  if (error instanceof AuthorizationError || error instanceof CimdFetchError) {
    return problem({
      status: 400,
      title: 'This connection request cannot be used',
      what:
        error instanceof AuthorizationError
          ? `The app's request was refused: ${error.description}`
          : 'The app could not be verified: its metadata document could not be read.',
      next: 'Start connecting again from the app.',
    });
  }
  throw error;
}

export function consentRoutes(signedIn: SignedInReader): Hono<ConsentEnv> {
  const app = new Hono<ConsentEnv>();

  app.get(AUTHORIZE_PATH, async (c) => {
    const oauth = c.env.OAUTH_PROVIDER;
    try {
      const request = await oauth.parseAuthRequest(c.req.raw);
      const person = await signedIn(c.req.raw, c.env);
      if (!person) {
        const url = new URL(c.req.url);
        return c.redirect(`/login?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, 302);
      }
      const details = await oauth.describeConsent(request);
      const consent = await oauth.beginConsent(request);
      return page(
        String(
          ConsentPage({
            details: {
              ...details,
              configure: grantedScopes(details.scope, details.redirectUri).includes(CONFIGURE_SCOPE),
            },
            handle: consent.handle,
            login: person.login,
            action: AUTHORIZE_PATH,
          }),
        ),
        200,
        consent.headers,
        details.redirectUri,
      );
    } catch (error) {
      return rendered(error);
    }
  });

  app.post(AUTHORIZE_PATH, async (c) => {
    const oauth = c.env.OAUTH_PROVIDER;
    const person = await signedIn(c.req.raw, c.env);
    if (!person) {
      return problem({
        status: 401,
        title: 'Sign in first',
        what: 'This browser is not signed in to the hub, so it cannot allow an app.',
        next: 'Start connecting again from the app; the hub will ask you to sign in.',
      });
    }
    const form = await c.req.formData();
    const handle = String(form.get('handle') ?? '');
    try {
      if (form.get('decision') !== 'approve') {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: denied.headers });
      }
      // The request as asked (the page showed these scopes); the grant is what the page promised.
      const approved = await oauth.approveConsent(c.req.raw, handle);
      const scope = grantedScopes(approved.request.scope, approved.request.redirectUri);
      const props: GrantProps = { hub: person.person, login: person.login };
      const { redirectTo } = await oauth.completeAuthorization({
        request: { ...approved.request, scope },
        // The library's user id may not hold a colon: `github-<id>`, for listing and revoking grants.
        userId: person.person.replace(':', '-'),
        metadata: { login: person.login },
        scope,
        props,
      });
      approved.headers.set('Location', redirectTo);
      return new Response(null, { status: 302, headers: approved.headers });
    } catch (error) {
      if (error instanceof AuthorizationError && !error.redirectTo) {
        return problem({
          status: 400,
          title: 'This page has expired',
          what: `It was used already, opened in another browser, or left too long (${error.description}).`,
          next: 'Start connecting again from the app.',
        });
      }
      return rendered(error);
    }
  });

  return app;
}
