/**
 * The store's source drafts (contracts/source-drafts.ts): sources a person is adding from the
 * dashboard, waiting for Confirm. Taking a draft deletes it in the same transaction that reads it,
 * so a draft is confirmed or cancelled once, whichever request comes first.
 */
import { eq, lte } from 'drizzle-orm';
import { SourceDraftRecord } from '../contracts/source-drafts.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

type DraftRow = typeof t.hubSourceDrafts.$inferSelect;

const draftFromRow = (row: DraftRow): SourceDraftRecord =>
  parseRecord(SourceDraftRecord, row, `source draft ${row.id}`);

export class DraftRecords extends Records {
  addSourceDraft(draft: SourceDraftRecord): void {
    const record = checkInput(SourceDraftRecord, draft, 'source draft');
    this.once(`a source draft ${record.id} already exists`, () =>
      this.db.insert(t.hubSourceDrafts).values(record).run(),
    );
  }

  getSourceDraft(id: string): SourceDraftRecord | undefined {
    const row = this.db.select().from(t.hubSourceDrafts).where(eq(t.hubSourceDrafts.id, id)).get();
    return row && draftFromRow(row);
  }

  takeSourceDraft(id: string): SourceDraftRecord | undefined {
    return this.write((db) => {
      const [row] = db.delete(t.hubSourceDrafts).where(eq(t.hubSourceDrafts.id, id)).returning().all();
      return row && draftFromRow(row);
    });
  }

  sweepSourceDrafts(now: number): SourceDraftRecord[] {
    return this.write((db) =>
      db
        .delete(t.hubSourceDrafts)
        .where(lte(t.hubSourceDrafts.expiresAt, now))
        .returning()
        .all()
        .map(draftFromRow),
    );
  }
}
