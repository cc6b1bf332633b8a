/**
 * The local hub's store: engine/store's HubStore over <home>/hub/hub.db through better-sqlite3.
 * WAL lets readers run beside a writer; the busy timeout makes several `serve --stdio`
 * processes wait for each other's short write transactions instead of failing. A process that
 * runs code checkpoints the WAL from a thread of its own (wal-checkpoints.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { HubError } from '../engine/errors.ts';
import type { HubStore } from '../engine/ports.ts';
import { openHubStore } from '../engine/store/hub-store.ts';
import { type MigrationBundle, WRITTEN_BY } from '../engine/store/migrate.ts';
import * as schema from '../engine/store/schema.ts';
import type { SyncDb } from '../engine/store/sync-db.ts';
import { MIGRATIONS_DIR, VERSION } from './package-files.ts';
import { checkpointAside } from './wal-checkpoints.ts';

/** How long a writer waits for another process's transaction before giving up. */
export const BUSY_TIMEOUT_MS = 10_000;

/** Reads migrations/ as the bundle drizzle-kit's migrations.js gives the Durable Object. */
export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationBundle {
  const journal = JSON.parse(
    readFileSync(join(dir, 'meta', '_journal.json'), 'utf8'),
  ) as MigrationBundle['journal'];
  const files = new Set(readdirSync(dir));
  const migrations: Record<string, string> = {};
  for (const entry of journal.entries) {
    const file = `${entry.tag}.sql`;
    if (!files.has(file)) throw new HubError('internal', `migration ${file} is missing from ${dir}`);
    migrations[`m${entry.idx.toString().padStart(4, '0')}`] = readFileSync(join(dir, file), 'utf8');
  }
  return { journal, migrations };
}

export interface LocalStore {
  store: HubStore;
  /** The raw database, for the store's own tests and `doctor`. */
  sqlite: Database.Database;
  /**
   * From now on the WAL's checkpoints run on a thread of their own, not inside this process's
   * commits (wal-checkpoints.ts); for a process whose runs journal every call. Once is enough.
   */
  checkpointAside(): void;
  close(): void;
}

/** Opens (creating and migrating as needed) the hub's SQLite file at `path`. */
export function openLocalStore(
  path: string,
  now: number,
  bundle: MigrationBundle = readMigrations(),
): LocalStore {
  const sqlite = new Database(path);
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL under WAL: a commit is written to the WAL but fsynced only at checkpoints. It
    // survives the process dying at any point (SIGKILL included: test/node/runs-crash.test.ts),
    // which is what the journal's exactly-once needs; what it trades is the machine losing
    // power or the OS crashing, after which the last commits before the crash may be gone (a
    // call's start among them, so a call could then be sent again). FULL would fsync every
    // commit, two per call.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    const db: SyncDb = drizzle({ client: sqlite, schema });
    // Other processes (each `serve --stdio`, the CLI) write the same file: data_version changes
    // whenever one of them committed, which tells the store to read its cached records again.
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    const immediate = sqlite.transaction((body: () => unknown) => body()).immediate;
    const store = openHubStore(
      db,
      bundle,
      now,
      `hub.db at ${path}`,
      { externalVersion: () => dataVersion.get(), immediate: immediate as <T>(body: () => T) => T },
      `capabilities ${VERSION}`,
    );
    let stopCheckpoints: (() => void) | undefined;
    return {
      store,
      sqlite,
      checkpointAside: () => {
        stopCheckpoints ??= checkpointAside(sqlite, path);
      },
      close: () => {
        stopCheckpoints?.();
        sqlite.close();
      },
    };
  } catch (error) {
    sqlite.close();
    if (error instanceof HubError) throw error;
    throw new HubError(
      'corrupt',
      `${path} could not be opened as the hub's store: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

export interface StoreInspection {
  schemaVersion: number;
  latestSchemaVersion: number;
  hubId: string | undefined;
  /** The capabilities that brought the store to its schema, when it said (`capabilities 0.2.0`). */
  writtenBy: string | undefined;
}

/**
 * Reads the store's schema version and hub id without changing anything (for `doctor`):
 * opened read-only, never migrated.
 */
export function inspectStore(path: string, bundle: MigrationBundle = readMigrations()): StoreInspection {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const has = (table: string) =>
      sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !==
      undefined;
    const schemaVersion = has('hub_migrations')
      ? (sqlite.prepare('SELECT count(*) AS n FROM hub_migrations').get() as { n: number }).n
      : 0;
    const meta = (key: string) =>
      has('hub_meta')
        ? (
            sqlite.prepare('SELECT value FROM hub_meta WHERE key = ?').get(key) as
              | { value: string }
              | undefined
          )?.value
        : undefined;
    return {
      schemaVersion,
      latestSchemaVersion: bundle.journal.entries.length,
      hubId: meta('hub_id'),
      writtenBy: meta(WRITTEN_BY),
    };
  } finally {
    sqlite.close();
  }
}
