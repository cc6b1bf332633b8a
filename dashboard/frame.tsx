/**
 * What every page's frame (layout.tsx) shows beyond the page itself: the host's sign-out, where
 * the host has one (the hosted hub's sign-in session; the local hub has none to end), as a form
 * that carries the page session's CSRF token; and, on a host with notifications (the hosted hub),
 * the installable app's parts: the manifest, the page script, the Notifications link and the
 * calls still waiting, from which the script closes the notifications of calls decided meanwhile.
 * The routes answer through `page`, which hands the frame to the layout through a JSX context,
 * so no page has to carry it.
 */
import type { Context } from 'hono';
import { type Child, createContext, useContext } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DashboardEnv } from './session.ts';

export interface Frame {
  /** Where the sign-out form posts, and the session's CSRF token it carries. */
  signOut?: { action: string; csrf: string; who: string } | undefined;
  /** On a host with notifications: the ids of the pending inputs still waiting for a person. */
  app?: { waiting: string[] } | undefined;
}

const FrameContext = createContext<Frame>({});

/** The frame of the page being rendered (empty outside `page`: a page with no sign-out). */
export const useFrame = (): Frame => useContext(FrameContext);

/** Answers with `element` as an HTML page (status 200 unless given), in the frame of this request. */
export function page(c: Context<DashboardEnv>, element: Child, status?: ContentfulStatusCode) {
  const action = c.get('signOut');
  const waiting = c.get('waiting');
  // A host's refusal may come before any session (the session middleware answered itself).
  const session = c.get('session') as DashboardEnv['Variables']['session'] | undefined;
  const frame: Frame = {
    signOut: action && session ? { action, csrf: session.csrf, who: session.who } : undefined,
    app: waiting && session ? { waiting: waiting() } : undefined,
  };
  return c.html(<FrameContext.Provider value={frame}>{element}</FrameContext.Provider>, status);
}
