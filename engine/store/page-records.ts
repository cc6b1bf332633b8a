/**
 * The store's page access records: one-time links and the page sessions they are exchanged for
 * (engine/pages/page-access.ts mints and checks them). Only SHA-256 hashes of tokens reach these
 * tables. Exchanging a link is one IMMEDIATE transaction with a compare-and-set on `used_at`, so
 * two requests with the same link, from any processes of one hub, open one session between them.
 */
import { and, eq, isNull, lte } from 'drizzle-orm';
import { PageLink, type PageLinkRedemption, PageSession, PageTarget } from '../contracts/pages.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

type LinkRow = typeof t.hubPageLinks.$inferSelect;
type SessionRow = typeof t.hubPageSessions.$inferSelect;

/** Never a token in a message: a hash names the record, and only its first digits. */
const named = (tokenHash: string) => `${tokenHash.slice(0, 8)}…`;

function linkFromRow(row: LinkRow): PageLink {
  const { usedAt, ...rest } = row;
  return parseRecord(PageLink, usedAt === null ? rest : row, `page link ${named(row.tokenHash)}`);
}

function sessionFromRow(row: SessionRow): PageSession {
  return parseRecord(PageSession, row, `page session ${named(row.tokenHash)}`);
}

export class PageRecords extends Records {
  addPageLink(link: PageLink): void {
    const record = checkInput(PageLink.omit({ usedAt: true }), link, 'page link');
    this.once(`a page link with hash ${named(record.tokenHash)} already exists`, () =>
      this.db.insert(t.hubPageLinks).values(record).run(),
    );
  }

  getPageLink(tokenHash: string): PageLink | undefined {
    const row = this.db.select().from(t.hubPageLinks).where(eq(t.hubPageLinks.tokenHash, tokenHash)).get();
    return row && linkFromRow(row);
  }

  redeemPageLink(tokenHash: string, session: Omit<PageSession, 'target'>, now: number): PageLinkRedemption {
    const start = checkInput(PageSession.omit({ target: true }), session, 'page session');
    return this.write((db) => {
      const link = this.getPageLink(tokenHash);
      if (!link) return { ok: false, reason: 'unknown' };
      if (link.usedAt !== undefined) return { ok: false, reason: 'used' };
      if (link.expiresAt <= now) return { ok: false, reason: 'expired' };
      const claimed = db
        .update(t.hubPageLinks)
        .set({ usedAt: now })
        .where(and(eq(t.hubPageLinks.tokenHash, tokenHash), isNull(t.hubPageLinks.usedAt)))
        .returning({ tokenHash: t.hubPageLinks.tokenHash })
        .all();
      if (claimed.length !== 1) return { ok: false, reason: 'used' };
      const opened: PageSession = { ...start, target: PageTarget.parse(link.target) };
      this.once(`a page session with hash ${named(opened.tokenHash)} already exists`, () =>
        db.insert(t.hubPageSessions).values(opened).run(),
      );
      return { ok: true, session: opened };
    });
  }

  getPageSession(tokenHash: string): PageSession | undefined {
    const row = this.db
      .select()
      .from(t.hubPageSessions)
      .where(eq(t.hubPageSessions.tokenHash, tokenHash))
      .get();
    return row && sessionFromRow(row);
  }

  removePageSession(tokenHash: string): void {
    this.db.delete(t.hubPageSessions).where(eq(t.hubPageSessions.tokenHash, tokenHash)).run();
  }

  sweepPageAccess(now: number): number {
    return this.write((db) => {
      const links = db.delete(t.hubPageLinks).where(lte(t.hubPageLinks.expiresAt, now)).returning().all();
      const sessions = db
        .delete(t.hubPageSessions)
        .where(lte(t.hubPageSessions.expiresAt, now))
        .returning()
        .all();
      return links.length + sessions.length;
    });
  }
}
