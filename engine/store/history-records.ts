/**
 * The store's source history (hub_source_history): what a person changed on a source, who and
 * when (contracts/source-history.ts). Appended to only; kept by namespace with no tie to the
 * source's row, so removing a source leaves its removal on record.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { SourceEvent } from '../contracts/source-history.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

/** The most events one listing returns when the caller names no limit. */
const LIST_LIMIT = 200;

export class HistoryRecords extends Records {
  addSourceEvent(event: SourceEvent): void {
    const checked = checkInput(SourceEvent, event, 'source event');
    this.write((db) => {
      this.once(`a source event ${checked.id} already exists`, () =>
        db
          .insert(t.hubSourceHistory)
          .values({
            id: checked.id,
            namespace: checked.namespace,
            who: checked.who,
            change: checked.change,
            at: checked.at,
          })
          .run(),
      );
    });
  }

  listSourceEvents(filter: { namespace?: string; limit?: number } = {}): SourceEvent[] {
    const query = this.db.select().from(t.hubSourceHistory);
    const where =
      filter.namespace === undefined
        ? query
        : query.where(eq(t.hubSourceHistory.namespace, filter.namespace));
    return (
      where
        // Newest first; within one millisecond, the later written first.
        .orderBy(desc(t.hubSourceHistory.at), desc(sql`rowid`))
        .limit(filter.limit ?? LIST_LIMIT)
        .all()
        .map((row) => parseRecord(SourceEvent, row, 'source event'))
    );
  }
}
