/**
 * The local hub's pages: the dashboard (dashboard/) behind one-time links, as one fetch handler
 * for the loopback app. A person at the browser is the OS user the hub runs as; the session
 * cookie is named for the hub, since every port of 127.0.0.1 shares a browser's cookies.
 */
import { userInfo } from 'node:os';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import { linkSession } from '../../dashboard/link-session.tsx';
import { resumeDecidedOneCall } from '../../engine/runs/one-call-resume.ts';
import { systemClock } from '../../engine/system.ts';
import type { OpenHub } from '../open-hub.ts';

/** The dashboard of the open hub, for `createApp`'s `pages`. */
export function localPages(open: OpenHub): (request: Request) => Promise<Response> {
  const links = linkSession({
    pages: open.engine.pages,
    who: userInfo().username,
    cookie: `capabilities_${open.local.hubId}`,
  });
  const app = createDashboard({
    desk: open.engine.desk,
    clock: systemClock,
    wording: open.engine.wording,
    session: links.session,
    exchange: links.exchange,
    review: open.engine.sources,
    adding: open.engine.drafts,
    decided: (runId) => resumeDecidedOneCall(open.engine, runId),
  });
  return async (request) => app.fetch(request);
}
