/**
 * What the sign-in routes tell a person when signing in does not go through, as the dashboard's
 * problem pages (dashboard/problem-page.tsx): what happened and what to do next. None names a
 * secret: no client secret, no code, no token, no allowlist.
 */
import type { Problem } from '../../dashboard/problem-page.tsx';

/** `/login` with `next`, for a "try again" link. */
export function loginHref(next: string): string {
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/** The GitHub app is not configured: which variables to set, and where. */
export function missingSettings(names: readonly string[]): Problem {
  const list = names.join(' and ');
  return {
    status: 500,
    title: 'Sign-in is not set up',
    what: `This hub has no GitHub OAuth app to sign people in with: ${list} ${names.length === 1 ? 'is' : 'are'} not set.`,
    next: `Set ${list} in .dev.vars for \`npm run dev\` (see .dev.vars.example), or with \`wrangler secret put ${names[0] ?? 'GITHUB_CLIENT_ID'}\` for a deployed hub.`,
  };
}

/** The callback came without the browser's attempt, or with another `state`. */
export function staleAttempt(): Problem {
  return {
    status: 400,
    title: 'This sign-in cannot be finished',
    what: 'The answer from GitHub does not belong to a sign-in started in this browser, or it was already used or is too old.',
    next: 'Start signing in again from this browser.',
    back: { href: '/login', label: 'Sign in with GitHub' },
  };
}

/** The person pressed Cancel at GitHub. */
export function cancelled(next: string): Problem {
  return {
    status: 403,
    title: 'Sign-in cancelled',
    what: 'You cancelled signing in at GitHub, so you are not signed in.',
    next: 'Sign in again whenever you like.',
    back: { href: loginHref(next), label: 'Try again' },
  };
}

/** GitHub sent back another error, or refused the code, or could not be reached. */
export function githubFailed(what: string, status: 400 | 502, next: string): Problem {
  return {
    status,
    title: 'GitHub did not sign you in',
    what,
    next: 'Try again; if it keeps failing, the hub operator should check the GitHub OAuth app and its callback URL.',
    back: { href: loginHref(next), label: 'Try again' },
  };
}

/** The login is not on SIGNUP_ALLOWLIST. */
export function notAllowed(login: string): Problem {
  return {
    status: 403,
    title: 'This hub is not open to you yet',
    what: `GitHub signed you in as ${login}, but this hub only lets people in whom its operator has listed.`,
    next: 'Ask the hub operator to add your GitHub login, then sign in again.',
  };
}

/** POST /logout without a sign-in. */
export function notSignedIn(): Problem {
  return {
    status: 401,
    title: 'You are not signed in',
    what: 'There is no sign-in in this browser to end.',
    next: 'Nothing to do; sign in when you want to use the hub.',
    back: { href: '/login', label: 'Sign in with GitHub' },
  };
}

/** POST /logout whose form lacks the session's CSRF token. */
export function badCsrf(): Problem {
  return {
    status: 403,
    title: 'Sign-out refused',
    what: 'This sign-out did not come from a page of this hub, so you are still signed in.',
    next: 'Sign out with the button on a hub page.',
    back: { href: '/', label: 'Back to the hub' },
  };
}
