/**
 * What search keeps in the store (hub_search_documents): each namespace's tool documents and
 * their terms, derived from its manifest (engine/search/stored-documents.ts), so a process that
 * starts answers its first search without reading a tool list; and the contract a person
 * reviewed for each tool, read without the reviewed tools themselves. The documents are a cache
 * the search code checks on the way out, never a record: a manifest stored or removed drops its
 * namespace's row (source-records.ts), and a row made from an older manifest is never stored.
 */
import { eq } from 'drizzle-orm';
import type { StoredSearchDocuments } from '../ports.ts';
import { Records } from './records.ts';
import * as t from './schema.ts';

export class SearchRecords extends Records {
  readonly #reviewedContracts = this.prepare((db) =>
    db
      .select({ address: t.hubReviews.address, contract: t.hubReviews.contract })
      .from(t.hubReviews)
      .prepare(),
  );

  listSearchDocuments(): StoredSearchDocuments[] {
    return this.db.select().from(t.hubSearchDocuments).all();
  }

  putSearchDocuments(record: StoredSearchDocuments): void {
    this.write((db) => {
      const manifest = db
        .select({ fetchedAt: t.hubManifests.fetchedAt })
        .from(t.hubManifests)
        .where(eq(t.hubManifests.namespace, record.namespace))
        .get();
      // Made from a manifest since replaced (or removed with its source): nothing to keep.
      if (manifest?.fetchedAt !== record.fetchedAt) return;
      const row = { ...record, documents: [...record.documents] };
      db.insert(t.hubSearchDocuments)
        .values(row)
        .onConflictDoUpdate({ target: t.hubSearchDocuments.namespace, set: row })
        .run();
    });
  }

  listReviewedContracts(): ReadonlyMap<string, string> {
    return this.cached(
      'reviewed contracts',
      () =>
        new Map(
          this.#reviewedContracts()
            .all()
            .map(({ address, contract }) => [address, contract]),
        ),
    );
  }
}
