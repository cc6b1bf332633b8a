/**
 * The frame of every dashboard page: a complete HTML document, readable on a phone (viewport,
 * one column, large buttons), legible in light and dark. Everything a page does is a plain form;
 * on a host with notifications (the hosted hub, frame.tsx `app`) the page also links the web
 * app's manifest and loads the hub's page script (app-scripts.ts), handing it the calls still
 * waiting in `data-waiting` on the body; the local hub's pages run no script at all. The
 * navigation (nav.tsx) heads every page, with the host's sign-out where it has one (frame.tsx).
 * The style sits inline, which the Content-Security-Policy allows for styles only; a page may
 * add its own rules (`style`).
 */
import type { Child } from 'hono/jsx';
import { APP_PATHS, THEME_COLOR } from './app-shell.ts';
import { useFrame } from './frame.tsx';
import { NAV_STYLE, Nav, type Section } from './nav.tsx';

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfd; --muted: #555; --line: #c9c9c9;
  --allow: #0b5d1e; --deny: #8a1010; }
@media (prefers-color-scheme: dark) { :root { --fg: #eee; --bg: #161616; --muted: #b4b4b4;
  --line: #444; --allow: #7fd99a; --deny: #ff9c9c; } }
body { font: 1rem/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 0 auto; padding: 1rem; max-width: 48rem; overflow-wrap: anywhere; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
section.call, section.problem { border: 1px solid var(--line); border-radius: .5rem; padding: 1rem;
  margin: 1rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid var(--line); padding: .5rem;
  max-height: 24rem; overflow: auto; font-size: .9rem; }
fieldset { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
legend { padding: 0; margin-bottom: .5rem; font-weight: 600; }
button { font: inherit; padding: .6rem 1rem; min-height: 2.75rem; border-radius: .4rem;
  border: 2px solid var(--fg); background: var(--bg); color: var(--fg); cursor: pointer; }
button:focus-visible, a:focus-visible { outline: 3px solid var(--allow); outline-offset: 2px; }
button[value=deny] { border-color: var(--deny); color: var(--deny); }
button[value=once] { border-color: var(--allow); color: var(--allow); }
.muted { color: var(--muted); }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
fieldset.group { display: block; margin: 1rem 0; } dl.diff { display: block; } dl.diff dd { margin-bottom: .5rem; }
.said { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 0 .75rem; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
select { font: inherit; min-height: 2.75rem; max-width: 100%; padding: .3rem; border-radius: .4rem; }
`;

export interface LayoutProps {
  title: string;
  children: Child;
  /** Where the dashboard is mounted (root.ts `dashboardRoot`), for the navigation's links. */
  root?: string | undefined;
  /** The section this page belongs to, marked in the navigation. */
  current?: Section | undefined;
  /** The page's own style rules, after the shared ones. */
  style?: string | undefined;
}

export function Layout(props: LayoutProps) {
  const { signOut, app } = useFrame();
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>{props.title}</title>
        {app ? <link rel="manifest" href={APP_PATHS.manifest} /> : null}
        {app ? <meta name="theme-color" content={THEME_COLOR} /> : null}
        {app ? <script src={APP_PATHS.pageScript} defer /> : null}
        <style>{`${STYLE}${NAV_STYLE}${props.style ?? ''}`}</style>
      </head>
      <body data-waiting={app ? app.waiting.join(' ') : undefined}>
        <Nav
          root={props.root ?? '/'}
          current={props.current}
          signOut={signOut}
          notifications={app !== undefined}
        />
        <main>{props.children}</main>
      </body>
    </html>
  );
}
