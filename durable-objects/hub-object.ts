/**
 * HubObject: one Durable Object per hub. It owns the hub's SQLite through engine/store's
 * HubStore, opened over ctx.storage with drizzle's durable-sqlite driver and migrated inside
 * blockConcurrencyWhile, so no request sees a half-migrated store.
 */
import { DurableObject } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import type { HubStore } from '../engine/ports.ts';
import { openHubStore } from '../engine/store/hub-store.ts';
import * as schema from '../engine/store/schema.ts';
import type { SyncDb } from '../engine/store/sync-db.ts';
import migrations from '../migrations/migrations.js';
import type { HubHealth } from '../worker/app.ts';

export interface HubEnv {
  HUB: DurableObjectNamespace<HubObject>;
  /** The bearer token for every route but /healthz (`.dev.vars` locally, a secret when deployed). */
  HUB_TOKEN?: string;
  /** Which hub this Worker serves; one HubObject per name. */
  HUB_NAME?: string;
  /** Loads guest code as dynamic Workers (WorkerLoaderSandbox); `[[worker_loaders]]` in wrangler.toml. */
  LOADER?: WorkerLoader;
}

export class HubObject extends DurableObject<HubEnv> {
  #store: HubStore | undefined;
  #hubId = '';

  constructor(ctx: DurableObjectState, env: HubEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const db: SyncDb = drizzle(ctx.storage, { schema });
      this.#store = openHubStore(db, migrations, Date.now(), 'the hub Durable Object');
      this.#hubId = this.#store.claimHubId(`hub_${crypto.randomUUID().replaceAll('-', '')}`);
    });
  }

  /** The store, for code running inside this object (and the store's conformance runner). */
  get store(): HubStore {
    if (!this.#store) throw new Error('HubObject used before its store was opened');
    return this.#store;
  }

  async health(): Promise<HubHealth> {
    return { hubId: this.#hubId, schemaVersion: this.store.schemaVersion };
  }
}
