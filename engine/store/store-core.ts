/**
 * The store's core, which every record module of the store shares (records.ts): the synchronous
 * drizzle database and the few rules every write follows. A write with several statements runs in
 * one IMMEDIATE transaction (the write lock first, so no lock upgrade can fail across processes);
 * an insert that hits a unique key becomes a `conflict` with a message saying what exists.
 *
 * It also keeps the records a call reads every time and a person changes rarely (sources,
 * manifests and tools, reviews, connections, policy rules) parsed in memory, until anything may
 * have changed them: a write of such a record through this store (the cache starts over before
 * the write and again when its transaction ends, committed or rolled back), or a commit by
 * another connection, which the host reports through `externalVersion` (SQLite's data_version
 * on the local hub, where other processes share the file; a Durable Object has one connection
 * and needs none). Cached records are frozen, so no caller can change what the next one reads.
 */
import { eq, sql } from 'drizzle-orm';
import { HubError } from '../errors.ts';
import { noRun, noSource } from '../not-found.ts';
import * as t from './schema.ts';
import type { SyncDb } from './sync-db.ts';

/** What the host knows of its database that drizzle's common API does not say. */
export interface StoreHost {
  /**
   * Changes whenever another connection committed to the database (see the top of this file).
   * Required where other connections write the same database.
   */
  externalVersion?: () => unknown;
  /**
   * Runs `body` in one IMMEDIATE transaction, as `db.transaction(…, { behavior: 'immediate' })`
   * does but built once (drizzle builds a transaction object and a driver wrapper per call).
   */
  immediate?: <T>(body: () => T) => T;
}

const UNREAD = Symbol('unread');
/** More cached answers than this (misses for made-up addresses count too) and the cache starts over. */
const MAX_CACHED = 10_000;

export class StoreCore {
  readonly db: SyncDb;
  readonly #externalVersion: StoreHost['externalVersion'];
  readonly #immediate: StoreHost['immediate'];
  readonly #cache = new Map<string, unknown>();
  /** Bumped by every write of a cached record through this store. */
  #generation = 0;
  #cacheGeneration = 0;
  #cacheExternal: unknown = UNREAD;
  /** Inside a write transaction (writes within it join it). */
  #inWrite = false;
  /** The external version, read once per write transaction (no other writer commits inside). */
  #transactionExternal: unknown = UNREAD;
  #changedInTransaction = false;

  constructor(db: SyncDb, host: StoreHost = {}) {
    this.db = db;
    this.#externalVersion = host.externalVersion;
    this.#immediate = host.immediate;
  }

  // Hot statements are prepared once per store (here and in the record modules): a call through a
  // run reads and writes a dozen rows, and building each query's SQL with drizzle and having
  // SQLite parse it again cost more than running it.
  readonly #sourceExists = this.prepare((db) =>
    db
      .select({ n: t.hubSources.namespace })
      .from(t.hubSources)
      .where(eq(t.hubSources.namespace, sql.placeholder('namespace')))
      .prepare(),
  );
  readonly #runExists = this.prepare((db) =>
    db
      .select({ id: t.hubRuns.id })
      .from(t.hubRuns)
      .where(eq(t.hubRuns.id, sql.placeholder('id')))
      .prepare(),
  );

  /** A statement built and prepared on first use, then reused. */
  prepare<T>(build: (db: SyncDb) => T): () => T {
    let statement: T | undefined;
    return () => {
      statement ??= build(this.db);
      return statement;
    };
  }

  /**
   * Runs `body` in one IMMEDIATE transaction (the write lock first, so no upgrade can fail).
   * Inside another write (an `atomically`), `body` joins that transaction: it lands with it or
   * not at all, and nothing inside catches a failed write to carry on.
   */
  write<T>(body: (db: SyncDb) => T): T {
    if (this.#inWrite) return body(this.db);
    this.#inWrite = true;
    try {
      return this.#immediate
        ? this.#immediate(() => body(this.db))
        : this.db.transaction(() => body(this.db), { behavior: 'immediate' });
    } finally {
      this.#inWrite = false;
      this.#transactionExternal = UNREAD;
      if (this.#changedInTransaction) {
        this.#changedInTransaction = false;
        this.#generation++;
      }
    }
  }

  /** The cached answer of `read` under `key`, read (and frozen) when none is current. */
  cached<T>(key: string, read: () => T): T {
    const external = this.#external();
    if (this.#cacheGeneration !== this.#generation || this.#cacheExternal !== external) {
      this.#cache.clear();
      this.#cacheGeneration = this.#generation;
      this.#cacheExternal = external;
    }
    if (this.#cache.has(key)) return this.#cache.get(key) as T;
    const value = deepFreeze(read());
    if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    this.#cache.set(key, value);
    return value;
  }

  /** Called before any write of a cached record: what is cached is read again. */
  recordsChanged(): void {
    this.#generation++;
    if (this.#inWrite) this.#changedInTransaction = true;
  }

  #external(): unknown {
    if (!this.#externalVersion) return undefined;
    if (!this.#inWrite) return this.#externalVersion();
    if (this.#transactionExternal === UNREAD) this.#transactionExternal = this.#externalVersion();
    return this.#transactionExternal;
  }

  /** Runs an insert; a unique or primary-key violation becomes a `conflict` with `message`. */
  once(message: string, insert: () => unknown): void {
    try {
      insert();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HubError('conflict', message, { cause: error });
      throw error;
    }
  }

  requireSource(namespace: string): void {
    if (!this.#sourceExists().get({ namespace })) {
      throw noSource(namespace);
    }
  }

  requireRun(runId: string): void {
    if (!this.#runExists().get({ id: runId })) {
      throw noRun(runId);
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const part of Object.values(value)) deepFreeze(part);
  }
  return value;
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
