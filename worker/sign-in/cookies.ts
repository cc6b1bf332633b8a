/**
 * Reading one cookie from a request's Cookie header, for the sign-in's two cookies. Values are
 * taken as they are (both cookies hold base64url, which needs no decoding); the first cookie of
 * the name wins, as browsers send the most specific one first.
 */

/** The value of cookie `name` on `request`, or undefined when it carries none. */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
