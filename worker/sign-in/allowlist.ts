/**
 * Who may sign in during an alpha: SIGNUP_ALLOWLIST, GitHub logins separated by commas, compared
 * without case (GitHub's logins are case-insensitive). Unset or empty: anyone with a GitHub
 * account. It is checked at every sign-in, at every request a sign-in session makes
 * (worker/index.ts) and at every token exchange (worker/oauth.ts), so removing a login keeps that
 * person out at once, and their MCP clients from their next token on.
 */

/** True when `login` may sign in under `allowlist` (the SIGNUP_ALLOWLIST setting). */
export function mayEnter(allowlist: string | undefined, login: string): boolean {
  const logins = (allowlist ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry.length > 0);
  return logins.length === 0 || logins.includes(login.toLowerCase());
}
