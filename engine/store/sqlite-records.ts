/**
 * The base of the store's record classes: the synchronous drizzle database and the few rules
 * every write follows. A write with several statements runs in one IMMEDIATE transaction (the
 * write lock first, so no lock upgrade can fail across processes); an insert that hits a unique
 * key becomes a `conflict` with a message saying what exists.
 */
import { eq } from 'drizzle-orm';
import { HubError } from '../errors.ts';
import * as t from './schema.ts';
import type { SyncDb } from './sync-db.ts';

export abstract class SqliteRecords {
  protected readonly db: SyncDb;

  constructor(db: SyncDb) {
    this.db = db;
  }

  /** Runs `body` in one IMMEDIATE transaction (the write lock first, so no upgrade can fail). */
  protected write<T>(body: (db: SyncDb) => T): T {
    return this.db.transaction(() => body(this.db), { behavior: 'immediate' });
  }

  /** Runs an insert; a unique or primary-key violation becomes a `conflict` with `message`. */
  protected once(message: string, insert: () => unknown): void {
    try {
      insert();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HubError('conflict', message, { cause: error });
      throw error;
    }
  }

  protected requireSource(namespace: string): void {
    if (
      !this.db
        .select({ n: t.hubSources.namespace })
        .from(t.hubSources)
        .where(eq(t.hubSources.namespace, namespace))
        .get()
    ) {
      throw new HubError(
        'not_found',
        `no source "${namespace}"; list sources with \`capabilities hub list\``,
      );
    }
  }

  protected requireRun(runId: string): void {
    if (!this.db.select({ id: t.hubRuns.id }).from(t.hubRuns).where(eq(t.hubRuns.id, runId)).get()) {
      throw new HubError('not_found', `no run ${runId}`);
    }
  }
}

/** SQLite reports a duplicate key the same way in workerd and better-sqlite3, in the message. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (
      /UNIQUE constraint failed|PRIMARY KEY constraint failed|SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)/.test(
        e.message,
      )
    )
      return true;
    if ('code' in e && typeof e.code === 'string' && /SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)/.test(e.code))
      return true;
  }
  return false;
}
