/**
 * The dashboard's navigation, on every page: the Inbox (what waits for a person), Runs (history)
 * and Sources, and Notifications on a host that sends them (the hosted hub). Plain links under the
 * mount the host chose (root.ts); the page a person is on is marked `aria-current` for screen
 * readers and underlined for everyone else. Where the host has a
 * sign-out (the hosted hub), the navigation ends with a Sign out button: a form posting the
 * session's CSRF token to the host's sign-out, which checks it.
 */
import type { Frame } from './frame.tsx';
import { hrefIn } from './root.ts';
import { line } from './shown.ts';

/** The sections of the dashboard, as the nav names them. */
export type Section = 'inbox' | 'runs' | 'sources' | 'notifications';

const SECTIONS: ReadonlyArray<{ section: Section; path: string; label: string }> = [
  { section: 'inbox', path: '', label: 'Inbox' },
  { section: 'runs', path: 'runs', label: 'Runs' },
  { section: 'sources', path: 'sources', label: 'Sources' },
];

/** The notification settings' place in the navigation, on a host with notifications only. */
export const NOTIFICATIONS_PATH = 'settings/notifications';
const NOTIFICATIONS = { section: 'notifications', path: NOTIFICATIONS_PATH, label: 'Notifications' } as const;

/** The navigation's rules, and the colour of every link (contrast over 7:1 in light and dark). */
export const NAV_STYLE = `
:root { --link: #0b4f9c; }
@media (prefers-color-scheme: dark) { :root { --link: #9cc8ff; } }
a { color: var(--link); }
nav.site ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0;
  margin: 0 0 1rem; border-bottom: 1px solid var(--line); }
nav.site a { display: inline-block; padding: .5rem .25rem; color: var(--fg); text-underline-offset: .3em; }
nav.site a:not([aria-current]) { text-decoration: none; }
nav.site a[aria-current] { font-weight: 600; text-decoration-thickness: 3px; }
nav.site li.sign-out { margin-left: auto; display: flex; align-items: center; gap: .5rem; }
nav.site li.sign-out button { min-height: 2.25rem; padding: .3rem .8rem; }
`;

export interface NavProps {
  root: string;
  current?: Section | undefined;
  signOut?: Frame['signOut'];
  /** The host sends notifications: the navigation links to their settings. */
  notifications?: boolean | undefined;
}

export function Nav(props: NavProps) {
  const { signOut } = props;
  const sections = props.notifications ? [...SECTIONS, NOTIFICATIONS] : SECTIONS;
  return (
    <nav class="site" aria-label="Dashboard">
      <ul>
        {sections.map(({ section, path, label }) => (
          <li>
            <a href={hrefIn(props.root, path)} aria-current={section === props.current ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
        {signOut ? (
          <li class="sign-out">
            <span class="muted">{line(signOut.who)}</span>
            <form method="post" action={signOut.action}>
              <input type="hidden" name="csrf" value={signOut.csrf} />
              <button type="submit">Sign out</button>
            </form>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
