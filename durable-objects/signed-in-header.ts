/**
 * How the Worker tells a person's HubObject who is at the browser: one request header the Worker
 * sets (overwriting whatever a browser sent under that name) after it checked the sign-in
 * session, and the HubObject reads. A HubObject is reachable only through the Worker's binding,
 * so the header is as trustworthy as the Worker's check. It carries the person's login (recorded
 * on decisions) and the session's CSRF token (every dashboard form carries it), never a secret
 * that outlives the session.
 */

export const SIGNED_IN_HEADER = 'x-capabilities-signed-in';

export interface SignedInHeader {
  /** Who decides, as recorded on decisions: `github:<login>`. */
  who: string;
  csrf: string;
}

/** `request` for the HubObject: the same request, carrying who is signed in (and nothing a browser set under that name). */
export function withSignedIn(request: Request, signedIn: SignedInHeader): Request {
  const headers = new Headers(request.headers);
  headers.set(SIGNED_IN_HEADER, JSON.stringify(signedIn));
  return new Request(request, { headers });
}

/** Who the Worker said is signed in, or null when the header is missing or malformed. */
export function readSignedIn(request: Request): SignedInHeader | null {
  const raw = request.headers.get(SIGNED_IN_HEADER);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SignedInHeader>;
    return typeof value.who === 'string' && typeof value.csrf === 'string' && value.csrf.length > 0
      ? { who: value.who, csrf: value.csrf }
      : null;
  } catch {
    return null;
  }
}
