/**
 * Sign-in sessions of the hosted hub: a person who signed in with GitHub holds a session cookie
 * (`__Host-capabilities-session`, 32 random bytes, HttpOnly, Secure, SameSite=Lax) for the
 * dashboard and for /authorize. KV (OAUTH_KV) keeps each session under the SHA-256 of its id,
 * never the id itself, and forgets it after SESSION_LIFETIME_S. The CSRF token is derived from
 * the id, so it is never stored. The person is `github:<numeric id>`: GitHub's id is stable, the
 * login can change and is kept for display only.
 */
import { sha256Hex } from '../../engine/digest.ts';
import { base64url } from '../../engine/hex.ts';
import { cookieValue } from './cookies.ts';
import type { GithubUser } from './github.ts';

/** How long a sign-in lasts: 8 hours, in the cookie, in KV and in the record's own check. */
export const SESSION_LIFETIME_S = 8 * 60 * 60;

export const SESSION_COOKIE = '__Host-capabilities-session';
/** KV keys of sessions: this prefix and the SHA-256 hex of the session id. */
export const SESSION_KEY_PREFIX = 'signin-session:';

const ID_BYTES = 32;
/** 32 bytes as unpadded base64url: 43 characters. */
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** The fixed label the CSRF token is an HMAC of, under the session id. */
const CSRF_LABEL = 'capabilities sign-in csrf v1';
const COOKIE_ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Lax';

/** The settings this module reads, as HubEnv names them. */
export interface SessionEnv {
  OAUTH_KV: KVNamespace;
}

/** A request's live sign-in. */
export interface SignedIn {
  /** The person's stable id: `github:<GitHub's numeric user id>`. */
  person: string;
  /** Their GitHub login when they signed in (for display; it can change). */
  login: string;
  /** The session's CSRF token: every form carries it; compare with the dashboard's checkCsrf. */
  csrf: string;
  /** SHA-256 hex of the session id: names the session without revealing it. */
  sessionHash: string;
}

/** What KV holds for a session. */
interface SessionRecord {
  person: string;
  login: string;
  createdAt: number;
}

/** Opens a session for `user`; the cookie is for Set-Cookie and nothing else. */
export async function createSession(env: SessionEnv, user: GithubUser): Promise<{ cookie: string }> {
  const id = base64url(crypto.getRandomValues(new Uint8Array(ID_BYTES)));
  const record: SessionRecord = { person: personOf(user), login: user.login, createdAt: Date.now() };
  await env.OAUTH_KV.put(await keyOf(id), JSON.stringify(record), { expirationTtl: SESSION_LIFETIME_S });
  return { cookie: `${SESSION_COOKIE}=${id}; ${COOKIE_ATTRIBUTES}; Max-Age=${SESSION_LIFETIME_S}` };
}

/** The live sign-in the request's cookie names; null when there is none, it ended or expired. */
export async function readSignIn(request: Request, env: SessionEnv): Promise<SignedIn | null> {
  const id = sessionId(request);
  if (id === undefined) return null;
  const sessionHash = await sha256Hex(id);
  const record = parseRecord(await env.OAUTH_KV.get(SESSION_KEY_PREFIX + sessionHash));
  if (!record || record.createdAt + SESSION_LIFETIME_S * 1000 <= Date.now()) return null;
  return { person: record.person, login: record.login, csrf: await csrfOf(id), sessionHash };
}

/** Ends the request's session (no error when there is none); the cookie expires it in the browser. */
export async function endSession(request: Request, env: SessionEnv): Promise<{ cookie: string }> {
  const id = sessionId(request);
  if (id !== undefined) await env.OAUTH_KV.delete(await keyOf(id));
  return { cookie: `${SESSION_COOKIE}=; ${COOKIE_ATTRIBUTES}; Max-Age=0` };
}

/** The person id of a GitHub user: their numeric id, never the login. */
export function personOf(user: GithubUser): string {
  return `github:${user.id}`;
}

function sessionId(request: Request): string | undefined {
  const id = cookieValue(request, SESSION_COOKIE);
  return id !== undefined && ID_SHAPE.test(id) ? id : undefined;
}

async function keyOf(id: string): Promise<string> {
  return SESSION_KEY_PREFIX + (await sha256Hex(id));
}

/** HMAC-SHA-256 of the fixed label under the session id, base64url. */
async function csrfOf(id: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(id),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(CSRF_LABEL))));
}

function parseRecord(text: string | null): SessionRecord | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { person, login, createdAt } = value as Record<string, unknown>;
    if (typeof person !== 'string' || !person.startsWith('github:')) return undefined;
    if (typeof login !== 'string' || typeof createdAt !== 'number') return undefined;
    return { person, login, createdAt };
  } catch {
    return undefined;
  }
}
