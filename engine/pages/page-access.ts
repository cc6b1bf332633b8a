/**
 * Page access (spec: Security and approvals, "Only a person approves"): the one-time links that
 * open the approval page or the dashboard, and the page sessions they are exchanged for.
 *
 * - A link carries a fresh token (32 random bytes, base64url); it is dead once exchanged or
 *   expired (10 minutes by default). Exchanging it is atomic in the store, so two requests with
 *   one link, from any process of the hub, open one session.
 * - A session carries its own token (for an HttpOnly, SameSite=Strict cookie the host sets) and
 *   a CSRF token derived from it, so every process can check a form without storing it.
 * - The store keeps only SHA-256 hashes of tokens; no token appears in an error or a log.
 *
 * Links and sessions live in the store, shared by every process of a hub, so a page keeps working
 * after the agent session that opened it ends and any process may serve it.
 */
import type { PageLinkRefusal, PageTarget } from '../contracts/pages.ts';
import { sha256Hex } from '../digest.ts';
import { base64url } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';

/** How long a link opens a session unless the caller says otherwise. */
export const LINK_TTL_MS = 10 * 60_000;
/**
 * How long a page session lasts from the link's exchange. Short: a browser sends the cookie to
 * every port of the loopback address, so another program there could replay it while it lives.
 */
export const SESSION_TTL_MS = 60 * 60_000;

const TOKEN_BYTES = 32;
/** 32 bytes as unpadded base64url: 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** Keeps the CSRF token apart from the session token's own hash (which the store holds). */
const CSRF_LABEL = 'capabilities page csrf v1\n';

export interface PageAccessDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
}

/** A freshly minted link's token (for the URL only) and when it dies. */
export interface MintedLink {
  token: string;
  expiresAt: number;
}

/** A link exchanged for a session: what the host hands the browser, and what the link opened. */
export type Redemption =
  | { ok: true; sessionToken: string; csrf: string; expiresAt: number; target: PageTarget }
  | { ok: false; reason: PageLinkRefusal };

/** A live page session, as a request presenting its token finds it. */
export interface LiveSession {
  who: string;
  /** The session's CSRF token, for the page's forms; the page's routes compare it with `checkCsrf` (dashboard/session.ts). */
  csrf: string;
  target: PageTarget;
  expiresAt: number;
}

export class PageAccess {
  readonly #deps: PageAccessDeps;

  constructor(deps: PageAccessDeps) {
    this.#deps = deps;
  }

  /** A one-time link to `target`, alive for `ttlMs`. The token goes in the URL and nowhere else. */
  async mintLink(target: PageTarget, ttlMs: number = LINK_TTL_MS): Promise<MintedLink> {
    const token = this.#token();
    const createdAt = this.#deps.clock.now();
    const expiresAt = createdAt + ttlMs;
    this.#deps.store.addPageLink({ tokenHash: await sha256Hex(token), target, createdAt, expiresAt });
    return { token, expiresAt };
  }

  /** Exchanges a link's token for a session opened by `who`, once; otherwise says why not. */
  async redeem(token: string, who: string): Promise<Redemption> {
    if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'unknown' };
    const sessionToken = this.#token();
    const now = this.#deps.clock.now();
    const expiresAt = now + SESSION_TTL_MS;
    const redeemed = this.#deps.store.redeemPageLink(
      await sha256Hex(token),
      { tokenHash: await sha256Hex(sessionToken), who, createdAt: now, expiresAt },
      now,
    );
    if (!redeemed.ok) return redeemed;
    return {
      ok: true,
      sessionToken,
      csrf: await csrfOf(sessionToken),
      expiresAt,
      target: redeemed.session.target,
    };
  }

  /** The live session a request's session token names; undefined when unknown or expired. */
  async session(sessionToken: string): Promise<LiveSession | undefined> {
    if (!TOKEN_SHAPE.test(sessionToken)) return undefined;
    const found = this.#deps.store.getPageSession(await sha256Hex(sessionToken));
    if (!found || found.expiresAt <= this.#deps.clock.now()) return undefined;
    return {
      who: found.who,
      csrf: await csrfOf(sessionToken),
      target: found.target,
      expiresAt: found.expiresAt,
    };
  }

  /** Ends a session (the page's sign-out); no error if it already ended. */
  async end(sessionToken: string): Promise<void> {
    if (TOKEN_SHAPE.test(sessionToken)) this.#deps.store.removePageSession(await sha256Hex(sessionToken));
  }

  /** Deletes the links and sessions that expired by `now`; returns how many. */
  sweep(now: number = this.#deps.clock.now()): number {
    return this.#deps.store.sweepPageAccess(now);
  }

  #token(): string {
    return base64url(this.#deps.random.bytes(TOKEN_BYTES));
  }
}

/** The CSRF token of a session: derived from its token, so no process needs to store it. */
async function csrfOf(sessionToken: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(CSRF_LABEL + sessionToken));
  return base64url(new Uint8Array(bytes));
}
