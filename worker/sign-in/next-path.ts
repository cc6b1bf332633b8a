/**
 * Where a sign-in leads afterwards (`/login?next=…`): only a path on this hub, so a link cannot
 * turn the hub's sign-in into a redirect to another site (an open redirect). Anything else is `/`.
 */

/** `next` when it is a same-origin path (one leading `/`, no `//`, no backslash, no control or space character); else `/`. */
export function sameOriginPath(next: string | undefined | null): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 4096) return '/';
  if (!next.startsWith('/') || next.startsWith('//')) return '/';
  // Browsers read `\` as `/` and drop tabs and newlines, so `/\evil` or `/\t/evil` would leave.
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (char === '\\' || /\s/.test(char) || code < 0x20 || code === 0x7f) return '/';
  }
  const base = 'https://hub.invalid';
  const url = new URL(next, base);
  if (url.origin !== base) return '/';
  // Dot segments resolve away: `/.//evil.example` becomes `//evil.example`, which leaves.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? '/' : path;
}
