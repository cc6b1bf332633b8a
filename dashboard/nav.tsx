/**
 * The dashboard's navigation, on every page: the Inbox (what waits for a person), Runs (history)
 * and Sources. Plain links under the mount the host chose (root.ts); the page a person is on is
 * marked `aria-current` for screen readers and underlined for everyone else.
 */
import { hrefIn } from './root.ts';

/** The sections of the dashboard, as the nav names them. */
export type Section = 'inbox' | 'runs' | 'sources';

const SECTIONS: ReadonlyArray<{ section: Section; path: string; label: string }> = [
  { section: 'inbox', path: '', label: 'Inbox' },
  { section: 'runs', path: 'runs', label: 'Runs' },
  { section: 'sources', path: 'sources', label: 'Sources' },
];

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
`;

export function Nav(props: { root: string; current?: Section | undefined }) {
  return (
    <nav class="site" aria-label="Dashboard">
      <ul>
        {SECTIONS.map(({ section, path, label }) => (
          <li>
            <a href={hrefIn(props.root, path)} aria-current={section === props.current ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
