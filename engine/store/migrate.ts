/**
 * Applies drizzle-kit's migrations to a synchronous drizzle SQLite database, the same way in
 * the Durable Object and in the local file. The bundle has the shape drizzle-kit writes for
 * `durable-sqlite` (migrations/migrations.js); the local host reads the same files from disk.
 *
 * Applied migrations are recorded in hub_migrations; the schema version is their count. A
 * store whose version is newer than this code knows is refused and never downgraded, with
 * nothing written: the refusal names the capabilities that brought the store to its schema
 * (hub_meta `written_by`, set by whoever applied migrations, when the host names itself) and
 * this one. The whole check-and-apply runs in one IMMEDIATE transaction, so several processes
 * opening one file at once apply each migration exactly once.
 */
import { sql } from 'drizzle-orm';
import { HubError } from '../errors.ts';
import type { SyncDb } from './sync-db.ts';

export interface MigrationBundle {
  journal: { entries: readonly { idx: number; tag: string; when: number }[] };
  /** `m0000` -> that migration's SQL, statements separated by `--> statement-breakpoint`. */
  migrations: Readonly<Record<string, string>>;
}

/** The schema version this code writes: the number of migrations it knows. */
export function latestSchemaVersion(bundle: MigrationBundle): number {
  return bundle.journal.entries.length;
}

/** The hub_meta key naming the capabilities that last brought the store to a newer schema. */
export const WRITTEN_BY = 'written_by';

/**
 * Brings `db` up to the bundle's latest schema and returns the schema version.
 * @param where names the store in messages ("hub.db at /home/…", "the Durable Object").
 * @param writer names this code in messages and in the store ("capabilities 0.2.0"), when known.
 */
export function migrate(
  db: SyncDb,
  bundle: MigrationBundle,
  now: number,
  where: string,
  writer?: string,
): number {
  const known = [...bundle.journal.entries].sort((a, b) => a.idx - b.idx);
  db.run(
    sql`CREATE TABLE IF NOT EXISTS hub_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  return db.transaction(
    (tx) => {
      const applied = tx.all<{ idx: number; tag: string }>(
        sql`SELECT idx, tag FROM hub_migrations ORDER BY idx`,
      );
      if (applied.length > known.length) {
        const by = writtenBy(tx);
        throw new HubError(
          'schema_too_new',
          `${where} was brought to schema version ${applied.length} by ${by ?? 'a newer capabilities'}; ` +
            `this is ${writer ?? 'a capabilities'} that knows schema version ${known.length}, so it changed nothing. ` +
            `Run ${by ?? 'the newer capabilities'} or later (a store is never downgraded).`,
        );
      }
      applied.forEach((row, i) => {
        if (row.idx !== i || row.tag !== known[i]?.tag) {
          throw new HubError(
            'corrupt',
            `${where} records migration ${row.idx} "${row.tag}", which this capabilities does not have at that place. ` +
              'The store was written by a different build; restore it from a backup or start a new home.',
          );
        }
      });
      for (const entry of known.slice(applied.length)) {
        const text = bundle.migrations[`m${entry.idx.toString().padStart(4, '0')}`];
        if (text === undefined)
          throw new HubError('internal', `migration ${entry.tag} is missing from the build`);
        for (const statement of text.split('--> statement-breakpoint')) {
          if (statement.trim() !== '') tx.run(sql.raw(statement));
        }
        tx.run(
          sql`INSERT INTO hub_migrations (idx, tag, applied_at) VALUES (${entry.idx}, ${entry.tag}, ${now})`,
        );
      }
      if (writer !== undefined && (applied.length < known.length || writtenBy(tx) === undefined)) {
        tx.run(
          sql`INSERT INTO hub_meta (key, value) VALUES (${WRITTEN_BY}, ${writer}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
      }
      return known.length;
    },
    { behavior: 'immediate' },
  );
}

/** Who brought the store to its schema, when one said (hub_meta may not exist yet). */
function writtenBy(tx: Pick<SyncDb, 'all'>): string | undefined {
  const table = tx.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'hub_meta'`,
  );
  if ((table[0]?.n ?? 0) === 0) return undefined;
  return tx.all<{ value: string }>(sql`SELECT value FROM hub_meta WHERE key = ${WRITTEN_BY}`)[0]?.value;
}
