/**
 * The sign-in routes of the hosted hub, a Hono sub-app to mount at `/`:
 *
 * - `GET /login?next=<path>` starts a sign-in attempt (attempts.ts) and sends the browser to
 *   GitHub; `next` is kept only when it is a path on this hub (next-path.ts).
 * - `GET /login/callback` is where GitHub sends the browser back (the GitHub OAuth app's callback
 *   URL): the attempt must be this browser's and its `state` GitHub's; then the code is exchanged
 *   with the PKCE verifier, the user fetched, SIGNUP_ALLOWLIST applied, a session opened
 *   (sessions.ts) and the browser sent on to `next`.
 * - `POST /logout` ends the session when the form carries its CSRF token, then goes to `/`.
 *
 * Every answer carries the dashboard's security headers (no script, no framing, no caching, no
 * referrer beyond the hub). The GitHub access token is used once, for `/user`, and then dropped.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { securityHeaders } from '../../dashboard/headers.ts';
import { type Problem, ProblemPage } from '../../dashboard/problem-page.tsx';
import { checkCsrf } from '../../dashboard/session.ts';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import { isHubError } from '../../engine/errors.ts';
import { mayEnter } from './allowlist.ts';
import { CLEAR_ATTEMPT_COOKIE, finishAttempt, startAttempt } from './attempts.ts';
import { authorizeUrl, exchangeCode, fetchUser, type GithubUser, githubApp } from './github.ts';
import { sameOriginPath } from './next-path.ts';
import * as problems from './problems.ts';
import { createSession, endSession, readSignIn } from './sessions.ts';

type SignInContext = Context<{ Bindings: HubEnv }>;

/** The sign-in routes: `/login`, `/login/callback`, `/logout`. */
export function signInRoutes(): Hono<{ Bindings: HubEnv }> {
  const app = new Hono<{ Bindings: HubEnv }>();
  // Per path, not `*`: mounted at `/`, a wildcard would reach the host's other routes too.
  for (const path of ['/login', '/login/callback', '/logout']) app.use(path, securityHeaders);

  app.get('/login', async (c) => {
    const settings = githubApp(c.env);
    if ('missing' in settings) return problem(c, problems.missingSettings(settings.missing));
    const next = sameOriginPath(c.req.query('next'));
    if (await readSignIn(c.req.raw, c.env)) return c.redirect(next, 302);
    const attempt = await startAttempt(c.env, next);
    c.header('Set-Cookie', attempt.cookie, { append: true });
    const redirectUri = callbackUrl(c.req.url, '/callback');
    return c.redirect(authorizeUrl(settings.app, { redirectUri, ...attempt }), 302);
  });

  app.get('/login/callback', async (c) => {
    const settings = githubApp(c.env);
    if ('missing' in settings) return problem(c, problems.missingSettings(settings.missing));
    const finished = await finishAttempt(c.req.raw, c.env, c.req.query('state'));
    c.header('Set-Cookie', CLEAR_ATTEMPT_COOKIE, { append: true });
    if (!finished.ok) return problem(c, problems.staleAttempt());
    const { next, verifier } = finished;
    const error = c.req.query('error');
    if (error === 'access_denied') return problem(c, problems.cancelled(next));
    const code = c.req.query('code');
    if (error !== undefined || !code) {
      const said = error === undefined ? 'GitHub sent no code back.' : `GitHub answered ${wordOf(error)}.`;
      return problem(c, problems.githubFailed(said, 502, next));
    }
    let user: GithubUser;
    try {
      const redirectUri = callbackUrl(c.req.url, '');
      const token = await exchangeCode(settings.app, { code, redirectUri, codeVerifier: verifier });
      user = await fetchUser(settings.app, token);
    } catch (error) {
      if (!isHubError(error)) throw error;
      const status = error.code === 'denied' ? 400 : 502;
      return problem(c, problems.githubFailed(error.message, status, next));
    }
    if (!mayEnter(c.env.SIGNUP_ALLOWLIST, user.login)) return problem(c, problems.notAllowed(user.login));
    const { cookie } = await createSession(c.env, user);
    c.header('Set-Cookie', cookie, { append: true });
    return c.redirect(next, 302);
  });

  app.post('/logout', async (c) => {
    const signedIn = await readSignIn(c.req.raw, c.env);
    if (!signedIn) return problem(c, problems.notSignedIn());
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (!checkCsrf(signedIn, form.csrf)) return problem(c, problems.badCsrf());
    const { cookie } = await endSession(c.req.raw, c.env);
    c.header('Set-Cookie', cookie, { append: true });
    return c.redirect('/', 302);
  });

  return app;
}

function problem(c: SignInContext, p: Problem) {
  return c.html(ProblemPage({ problem: p }), p.status);
}

/**
 * The callback's URL, GitHub's `redirect_uri`: from `/login` add `/callback`; at the callback
 * itself, its own URL without the query. Both from the request's origin and path, so the routes
 * work wherever they are mounted; the GitHub app's callback URL must be the same.
 */
function callbackUrl(requestUrl: string, suffix: '/callback' | ''): string {
  const url = new URL(requestUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}${suffix}`;
}

/** GitHub's error code in its own alphabet, so nothing else rides along into a page. */
function wordOf(text: string): string {
  return text.replace(/[^a-z0-9_]/gi, '').slice(0, 64) || 'an error';
}
