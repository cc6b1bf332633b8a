/**
 * Sign-in attempts: what the hub remembers between sending a browser to GitHub and GitHub
 * sending it back. Starting one makes a PKCE verifier and a `state`, keeps them (with where to
 * go afterwards) in KV for ATTEMPT_LIFETIME_S under the SHA-256 of a fresh binding id, and binds
 * them to the browser with the `__Host-capabilities-signin` cookie holding that id (SameSite=Lax,
 * so GitHub's redirect back carries it). Finishing one takes the record once, whatever the
 * outcome, and holds only when the callback's `state` is the record's: a `state` forged, replayed
 * or carried into another browser finds nothing.
 *
 * One attempt per browser at a time: starting another replaces the cookie, and the first one's
 * callback is refused (the person starts again).
 */
import { sha256Hex } from '../../engine/digest.ts';
import { base64url } from '../../engine/hex.ts';
import { cookieValue } from './cookies.ts';
import type { SessionEnv } from './sessions.ts';

/** How long a person has at GitHub before the attempt is forgotten: 10 minutes. */
export const ATTEMPT_LIFETIME_S = 10 * 60;
export const ATTEMPT_COOKIE = '__Host-capabilities-signin';
/** KV keys of attempts: this prefix and the SHA-256 hex of the binding id. */
export const ATTEMPT_KEY_PREFIX = 'signin-attempt:';

const COOKIE_ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Lax';
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What KV holds for an attempt. The state is kept as its hash; the verifier as is. */
export interface AttemptRecord {
  stateHash: string;
  verifier: string;
  /** The same-origin path to go to once signed in. */
  next: string;
  createdAt: number;
}

/** A started attempt: the state and challenge for GitHub, the cookie for the browser. */
export interface StartedAttempt {
  state: string;
  codeChallenge: string;
  cookie: string;
}

/** What finishing an attempt found: its verifier and `next`, or why it cannot go on. */
export type FinishedAttempt =
  | { ok: true; verifier: string; next: string }
  | { ok: false; reason: 'no_cookie' | 'unknown' | 'state_mismatch' };

/** Starts an attempt that will lead to `next` (already checked same-origin). */
export async function startAttempt(env: SessionEnv, next: string): Promise<StartedAttempt> {
  const binding = randomToken();
  const state = randomToken();
  const verifier = randomToken();
  const record: AttemptRecord = { stateHash: await sha256Hex(state), verifier, next, createdAt: Date.now() };
  await env.OAUTH_KV.put(ATTEMPT_KEY_PREFIX + (await sha256Hex(binding)), JSON.stringify(record), {
    expirationTtl: ATTEMPT_LIFETIME_S,
  });
  return {
    state,
    codeChallenge: await s256(verifier),
    cookie: `${ATTEMPT_COOKIE}=${binding}; ${COOKIE_ATTRIBUTES}; Max-Age=${ATTEMPT_LIFETIME_S}`,
  };
}

/** Takes the browser's attempt (once) and checks GitHub's `state` against it. */
export async function finishAttempt(
  request: Request,
  env: SessionEnv,
  state: string | undefined,
): Promise<FinishedAttempt> {
  const binding = cookieValue(request, ATTEMPT_COOKIE);
  if (binding === undefined || !ID_SHAPE.test(binding)) return { ok: false, reason: 'no_cookie' };
  const key = ATTEMPT_KEY_PREFIX + (await sha256Hex(binding));
  const record = parseRecord(await env.OAUTH_KV.get(key));
  if (!record || record.createdAt + ATTEMPT_LIFETIME_S * 1000 <= Date.now())
    return { ok: false, reason: 'unknown' };
  await env.OAUTH_KV.delete(key);
  // Hashes compared: a guess learns nothing from how long a comparison of digests took.
  if (state === undefined || (await sha256Hex(state)) !== record.stateHash) {
    return { ok: false, reason: 'state_mismatch' };
  }
  return { ok: true, verifier: record.verifier, next: record.next };
}

/** The Set-Cookie value that clears the attempt's cookie. */
export const CLEAR_ATTEMPT_COOKIE = `${ATTEMPT_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`;

/** PKCE S256: base64url of the verifier's SHA-256. */
export async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

function randomToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

function parseRecord(text: string | null): AttemptRecord | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { stateHash, verifier, next, createdAt } = value as Record<string, unknown>;
    if (typeof stateHash !== 'string' || typeof verifier !== 'string') return undefined;
    if (typeof next !== 'string' || typeof createdAt !== 'number') return undefined;
    return { stateHash, verifier, next, createdAt };
  } catch {
    return undefined;
  }
}
