/**
 * The one database type the store is written for: every drizzle SQLite database with the
 * synchronous API (`durable-sqlite` over ctx.storage in the Durable Object, `better-sqlite3`
 * over a file on the local hub).
 */
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema.ts';

export type SyncDb = BaseSQLiteDatabase<'sync', unknown, typeof schema>;
