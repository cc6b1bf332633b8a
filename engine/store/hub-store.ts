/**
 * The one HubStore implementation, over any synchronous drizzle SQLite database. The Durable
 * Object opens it over ctx.storage, the local host over <home>/hub/hub.db; both call
 * `openHubStore`, which migrates first.
 *
 * The store is assembled, not inherited: one StoreCore (store-core.ts: the database, its write
 * transactions and its cache of hot records) shared by one module per concern, each its own file,
 * in the order the HubStore port reads: what a hub reaches (sources, manifests, reviews,
 * connections, policy), profiles, skills, the search index, runs (with the journal, pending inputs
 * and decisions) and their result blobs, source drafts, pages, refresh leases, the sources'
 * history, notifications. Their public methods are the store's (`adopt`).
 *
 * Invariants: records are validated on the way in and parsed on the way out; a method with
 * several writes runs them in one IMMEDIATE transaction, and a write inside another joins it,
 * whichever modules the two belong to (they share the core).
 */
import { HubError } from '../errors.ts';
import type { HubStore } from '../ports.ts';
import { BlobRecords } from './blob-records.ts';
import { DraftRecords } from './draft-records.ts';
import { HistoryRecords } from './history-records.ts';
import { LeaseRecords } from './lease-records.ts';
import { latestSchemaVersion, type MigrationBundle, migrate } from './migrate.ts';
import { NotifyRecords } from './notify-records.ts';
import { PageRecords } from './page-records.ts';
import { ProfileRecords } from './profile-records.ts';
import { RunRecords } from './run-records.ts';
import { SearchRecords } from './search-records.ts';
import { SkillRecords } from './skill-records.ts';
import { SourceRecords } from './source-records.ts';
import { StoreCore, type StoreHost } from './store-core.ts';
import type { SyncDb } from './sync-db.ts';

export type { StoreHost };

/**
 * Migrates `db` and opens the store over it. Where other connections may write the same database
 * (other processes on the local hub), `host.externalVersion` must change whenever one did.
 * `writer` names this code ("capabilities 0.2.0") in the store and in a refusal (migrate.ts).
 */
export function openHubStore(
  db: SyncDb,
  bundle: MigrationBundle,
  now: number,
  where: string,
  host?: StoreHost,
  writer?: string,
): HubStore {
  const schemaVersion = migrate(db, bundle, now, where, writer);
  if (schemaVersion !== latestSchemaVersion(bundle))
    throw new HubError('internal', 'migration did not complete');
  return new SqliteHubStore(db, schemaVersion, host);
}

/** A module's public methods: what the store takes over from it. */
type Public<T> = Pick<T, keyof T>;

export interface SqliteHubStore
  extends Public<SourceRecords>,
    Public<ProfileRecords>,
    Public<SkillRecords>,
    Public<SearchRecords>,
    Public<RunRecords>,
    Public<BlobRecords>,
    Public<DraftRecords>,
    Public<PageRecords>,
    Public<LeaseRecords>,
    Public<HistoryRecords>,
    Public<NotifyRecords> {}

export class SqliteHubStore implements HubStore {
  readonly schemaVersion: number;

  constructor(db: SyncDb, schemaVersion: number, host?: StoreHost) {
    this.schemaVersion = schemaVersion;
    const core = new StoreCore(db, host);
    const blobs = new BlobRecords(core);
    for (const module of [
      new SourceRecords(core),
      new ProfileRecords(core),
      new SkillRecords(core),
      new SearchRecords(core),
      new RunRecords(core, blobs),
      blobs,
      new DraftRecords(core),
      new PageRecords(core),
      new LeaseRecords(core),
      new HistoryRecords(core),
      new NotifyRecords(core),
    ]) {
      adopt(this, module);
    }
  }
}

/**
 * Makes each public method of `module` (its class's own) a method of `store`, bound to the
 * module. Two modules never name one method: the second would be refused here, at construction.
 */
function adopt(store: object, module: object): void {
  const prototype = Object.getPrototypeOf(module) as object;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method: unknown = Reflect.get(prototype, name);
    if (name === 'constructor' || typeof method !== 'function') continue;
    if (Object.hasOwn(store, name)) throw new Error(`two store modules name the method ${name}`);
    // As an assignment would: a test (or a wrapper) may replace or proxy it like any method.
    Object.defineProperty(store, name, {
      value: method.bind(module),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}
