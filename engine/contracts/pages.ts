/**
 * Page access: the one-time links that open the approval page or the dashboard, and the
 * sessions they are exchanged for (spec: Security and approvals, "Only a person approves").
 * The store keeps only the SHA-256 of a link's or a session's token, never the token.
 */
import { z } from 'zod';
import { Id, Timestamp } from './names.ts';

/** What a link opens: one run's approval page, or the whole dashboard. */
export const PageTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), runId: Id }),
  z.object({ kind: z.literal('dashboard') }),
]);
export type PageTarget = z.infer<typeof PageTarget>;

/** Lowercase hex SHA-256 of a token: what the store keys links and sessions by. */
export const TokenHash = z.string().regex(/^[0-9a-f]{64}$/, 'a token hash is 64 lowercase hex digits');

/** A one-time link as stored. `usedAt` is set once, when it is exchanged for a session. */
export const PageLink = z.object({
  tokenHash: TokenHash,
  target: PageTarget,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  usedAt: Timestamp.optional(),
});
export type PageLink = z.infer<typeof PageLink>;

/** A page session as stored: who opened it and what its link opened. */
export const PageSession = z.object({
  tokenHash: TokenHash,
  who: z.string().min(1),
  target: PageTarget,
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type PageSession = z.infer<typeof PageSession>;

/** Why a link gives no session. */
export type PageLinkRefusal = 'used' | 'expired' | 'unknown';

/** What exchanging a link gave: the session it opened (with the link's target), or a refusal. */
export type PageLinkRedemption = { ok: true; session: PageSession } | { ok: false; reason: PageLinkRefusal };
