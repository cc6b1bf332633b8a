/**
 * The base of the store's record modules (sources, profiles, skills, runs…): each is one concern
 * over the one StoreCore they all share (store-core.ts), with its helpers at hand. The store
 * assembles the modules (hub-store.ts); no module extends another.
 */
import type { StoreCore } from './store-core.ts';
import type { SyncDb } from './sync-db.ts';

export abstract class Records {
  protected readonly core: StoreCore;
  protected readonly db: SyncDb;

  constructor(core: StoreCore) {
    this.core = core;
    this.db = core.db;
  }

  /** A statement built and prepared on first use, then reused (StoreCore.prepare). */
  protected prepare<T>(build: (db: SyncDb) => T): () => T {
    return this.core.prepare(build);
  }

  /** `body` in one IMMEDIATE transaction, or in the one already open (StoreCore.write). */
  protected write<T>(body: (db: SyncDb) => T): T {
    return this.core.write(body);
  }

  /** The cached answer of `read` under `key` (StoreCore.cached). */
  protected cached<T>(key: string, read: () => T): T {
    return this.core.cached(key, read);
  }

  protected recordsChanged(): void {
    this.core.recordsChanged();
  }

  protected once(message: string, insert: () => unknown): void {
    this.core.once(message, insert);
  }

  protected requireSource(namespace: string): void {
    this.core.requireSource(namespace);
  }

  protected requireRun(runId: string): void {
    this.core.requireRun(runId);
  }
}
