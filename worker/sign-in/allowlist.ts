/**
 * Who may sign in during an alpha: SIGNUP_ALLOWLIST, GitHub logins separated by commas, compared
 * without case (GitHub's logins are case-insensitive). Unset or empty: anyone with a GitHub
 * account. It is checked at every sign-in, so removing a login keeps that person out from their
 * next sign-in on (their open session lasts until it ends).
 */

/** True when `login` may sign in under `allowlist` (the SIGNUP_ALLOWLIST setting). */
export function mayEnter(allowlist: string | undefined, login: string): boolean {
  const logins = (allowlist ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry.length > 0);
  return logins.length === 0 || logins.includes(login.toLowerCase());
}
