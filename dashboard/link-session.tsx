/**
 * Page sessions opened by one-time links: the local hub's way of knowing the person at the
 * browser (the hosted hub signs people in instead). The hub opens `GET /open?t=<token>` in the
 * person's browser itself; this exchanges the token for a page session once (engine/pages,
 * atomic in the store), sets it as an HttpOnly, SameSite=Strict cookie and sends the browser on
 * to what the link opened, without the token in the address bar. Every later request finds its
 * session by that cookie, or is refused with a page that says how to get a new link.
 *
 * A reused, expired or unknown link opens nothing; a second click on a used link says so and
 * offers the page it opened when this browser already holds a session that reaches it.
 */
import type { Context, Handler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { PageLinkRefusal, PageTarget } from '../engine/contracts/pages.ts';
import type { LiveSession, Redemption } from '../engine/pages/page-access.ts';
import { type Problem, ProblemPage } from './problem-page.tsx';
import type { DashboardEnv, PageSession, SessionMiddleware } from './session.ts';

/** The part of the engine's page access (`engine.pages`) a link session uses. */
export interface PageLinks {
  redeem(token: string, who: string): Promise<Redemption>;
  session(sessionToken: string): Promise<LiveSession | undefined>;
}

export interface LinkSessionOptions {
  pages: PageLinks;
  /** Who decides through a page of this host (the local hub: the OS user it runs as). */
  who: string;
  /**
   * The cookie's name: one per hub, since browsers share cookies across the ports of a host and
   * several hubs may serve pages on one machine.
   */
  cookie: string;
}

/** The link exchange (`GET /open`) and the session middleware every other page runs behind. */
export interface LinkSession {
  exchange: Handler<DashboardEnv>;
  session: SessionMiddleware;
}

/** Where the link exchange is served, under the dashboard's mount. */
export const OPEN_PATH = '/open';

/** The path of the link for `token`, under the dashboard's mount: what the host opens. */
export const linkPath = (token: string): string => `${OPEN_PATH}?t=${token}`;

/** True when a session opened for `held` reaches what a link for `target` opens. */
const reaches = (held: PageTarget, target: PageTarget): boolean =>
  held.kind === 'dashboard' || (target.kind === 'run' && target.runId === held.runId);

/** Where a target's page is, from the root the dashboard is mounted at. */
export function targetPath(target: PageTarget): string {
  return target.kind === 'run' ? `/runs/${encodeURIComponent(target.runId)}` : '/';
}

const REFUSED: Record<PageLinkRefusal, { title: string; what: string }> = {
  used: {
    title: 'This link was already used',
    what: 'Each link the hub opens works once, and this one already opened a page session; it opened nothing now.',
  },
  expired: {
    title: 'This link has expired',
    what: 'A link the hub opens works for ten minutes; this one is older and opened nothing.',
  },
  unknown: {
    title: 'Not a link of this hub',
    what: 'This hub never opened this link, so it opened nothing.',
  },
};

export function linkSession(options: LinkSessionOptions): LinkSession {
  const { pages, who, cookie } = options;
  const problem = (c: Context<DashboardEnv>, p: Problem) => c.html(<ProblemPage problem={p} />, p.status);
  const current = async (c: Context<DashboardEnv>) => {
    const token = getCookie(c, cookie);
    return token === undefined ? undefined : pages.session(token);
  };

  const exchange: Handler<DashboardEnv> = async (c) => {
    // A HEAD (a link checker, a preview) must not use up the person's link.
    if (c.req.method === 'HEAD') return c.body(null, 200);
    const redeemed = await pages.redeem(c.req.query('t') ?? '', who);
    if (!redeemed.ok) {
      const held = await current(c);
      const { title, what } = REFUSED[redeemed.reason];
      return problem(c, {
        status: redeemed.reason === 'unknown' ? 404 : 410,
        title,
        what,
        next: held
          ? 'This browser already has a page session of this hub; go on to its page below.'
          : `For a new link, ${c.get('wording').openDashboard}.`,
        ...(held ? { back: { href: targetPath(held.target), label: 'Go to the page' } } : {}),
      });
    }
    // A session this browser holds that already reaches the target stays (an approval link must
    // not narrow an open dashboard to one run); the link is used up all the same.
    const held = await current(c);
    if (held && reaches(held.target, redeemed.target)) return c.redirect(targetPath(redeemed.target), 303);
    setCookie(c, cookie, redeemed.sessionToken, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      expires: new Date(redeemed.expiresAt),
    });
    return c.redirect(targetPath(redeemed.target), 303);
  };

  const session: SessionMiddleware = async (c, next) => {
    const live = await current(c);
    if (!live) {
      return problem(c, {
        status: 401,
        title: 'No page session',
        what: 'This browser has no live page session of this hub (none was opened here, or it ended), so the page is not shown.',
        next: `Open the page from the link the hub opened for you. For the whole dashboard, ${c.get('wording').openDashboard}.`,
      });
    }
    const page: PageSession = { who: live.who, csrf: live.csrf, scope: live.target };
    c.set('session', page);
    await next();
  };

  return { exchange, session };
}
