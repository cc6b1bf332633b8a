/**
 * What the host tells the dashboard about the person at the browser: the page session. The
 * dashboard never authenticates anyone itself (design: one Hono app, auth is the host's
 * middleware). The host's middleware finds the session (the local hub from a one-time link's
 * cookie, the hosted hub from its sign-in), refuses the request when there is none, and sets it
 * with `c.set('session', …)`. The dashboard then checks the CSRF token of every form it receives
 * against it, and records decisions in the session's name.
 */
import type { MiddlewareHandler } from 'hono';
import type { PageTarget } from '../engine/contracts/pages.ts';
import type { HostWording } from '../engine/wording.ts';

/** The person a request comes from, as the host's session middleware found them. */
export interface PageSession {
  /** Who decides, as the host knows them (an OS user, a signed-in account): recorded on decisions. */
  who: string;
  /** The session's CSRF token: every form carries it, every POST must match it. */
  csrf: string;
  /**
   * What the session may reach: one run's pages (a session opened by that run's approval link),
   * or the whole dashboard (a dashboard link, a hosted sign-in).
   */
  scope: PageTarget;
}

/** The Hono environment of the dashboard's routes: the session the host's middleware set. */
export interface DashboardEnv {
  /**
   * `wording` is the host's (createDashboard sets it), for what a page tells a person to do;
   * `signOut`, where the host ends a sign-in session (a POST with the session's CSRF token), only
   * on a host that has one; `waiting`, on a host with notifications, the ids of the calls still
   * waiting for a person, which every page hands its script (frame.tsx).
   */
  Variables: {
    session: PageSession;
    wording: HostWording;
    signOut?: string | undefined;
    waiting?: (() => string[]) | undefined;
  };
}

/** The host's session middleware: sets `session`, or answers the request itself (sign in, 403…). */
export type SessionMiddleware = MiddlewareHandler<DashboardEnv>;

/** True when `token` is the session's CSRF token; compared without stopping at the first difference. */
export function checkCsrf(session: Pick<PageSession, 'csrf'>, token: unknown): boolean {
  if (typeof token !== 'string' || session.csrf.length === 0) return false;
  const a = session.csrf;
  let diff = a.length ^ token.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ (token.charCodeAt(i) || 0);
  return diff === 0;
}

/** True when the session may see and decide `runId`: a dashboard session, or that run's own. */
export function reachesRun(session: PageSession, runId: string): boolean {
  return session.scope.kind === 'dashboard' || session.scope.runId === runId;
}

/** True when the session may see the whole dashboard (inbox, runs, sources). */
export function reachesDashboard(session: PageSession): boolean {
  return session.scope.kind === 'dashboard';
}
