/**
 * The store's result blobs (hub_result_blobs and their chunks): tool results too large to go
 * inline, kept for their run (engine/runs/result-handles.ts). A blob is written once, whole, in
 * one transaction; its text is split into chunks of at most BLOB_CHUNK_CHARS characters (a
 * Durable Object's SQLite keeps no value over 2 MB). Blobs go with their run (`pruneRuns`).
 */
import { asc, eq, inArray, sum } from 'drizzle-orm';
import type { ResultBlob, ResultBlobInfo } from '../ports.ts';
import { Records } from './records.ts';
import * as t from './schema.ts';
import type { SyncDb } from './sync-db.ts';

/** Characters per chunk: at most 3 bytes each in UTF-8, under the 2 MB a value may take. */
export const BLOB_CHUNK_CHARS = 512 * 1024;

export class BlobRecords extends Records {
  putResultBlob(blob: ResultBlob): void {
    this.write((db) => {
      this.requireRun(blob.runId);
      this.once(`a result blob ${blob.handle} already exists`, () =>
        db
          .insert(t.hubResultBlobs)
          .values({
            handle: blob.handle,
            runId: blob.runId,
            bytes: blob.bytes,
            mediaType: blob.mediaType,
            createdAt: blob.createdAt,
          })
          .run(),
      );
      let position = 0;
      for (let start = 0; start < blob.text.length || position === 0; position++) {
        let end = Math.min(start + BLOB_CHUNK_CHARS, blob.text.length);
        // Never between the two halves of a surrogate pair: SQLite would keep neither.
        if (end < blob.text.length && isHighSurrogate(blob.text.charCodeAt(end - 1))) end--;
        db.insert(t.hubResultBlobChunks)
          .values({ handle: blob.handle, position, text: blob.text.slice(start, end) })
          .run();
        start = end;
      }
    });
  }

  getResultBlobInfo(handle: string): ResultBlobInfo | undefined {
    const row = this.db.select().from(t.hubResultBlobs).where(eq(t.hubResultBlobs.handle, handle)).get();
    return row
      ? {
          handle: row.handle,
          runId: row.runId,
          bytes: row.bytes,
          mediaType: row.mediaType,
          createdAt: row.createdAt,
        }
      : undefined;
  }

  readResultBlobText(handle: string): string | undefined {
    if (!this.getResultBlobInfo(handle)) return undefined;
    return this.db
      .select({ text: t.hubResultBlobChunks.text })
      .from(t.hubResultBlobChunks)
      .where(eq(t.hubResultBlobChunks.handle, handle))
      .orderBy(asc(t.hubResultBlobChunks.position))
      .all()
      .map((row) => row.text)
      .join('');
  }

  resultBlobBytes(runId: string): number {
    const row = this.db
      .select({ total: sum(t.hubResultBlobs.bytes) })
      .from(t.hubResultBlobs)
      .where(eq(t.hubResultBlobs.runId, runId))
      .get();
    return Number(row?.total ?? 0);
  }

  /** Deletes the blobs of these runs (inside pruneRuns' transaction). */
  deleteResultBlobs(db: SyncDb, runIds: readonly string[]): void {
    const handles = db
      .select({ handle: t.hubResultBlobs.handle })
      .from(t.hubResultBlobs)
      .where(inArray(t.hubResultBlobs.runId, [...runIds]))
      .all()
      .map((row) => row.handle);
    for (let i = 0; i < handles.length; i += 500) {
      db.delete(t.hubResultBlobChunks)
        .where(inArray(t.hubResultBlobChunks.handle, handles.slice(i, i + 500)))
        .run();
    }
    db.delete(t.hubResultBlobs)
      .where(inArray(t.hubResultBlobs.runId, [...runIds]))
      .run();
  }
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
