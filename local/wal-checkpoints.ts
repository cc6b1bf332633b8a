/**
 * The hub.db WAL's checkpoints, on a thread of their own (issue #35). Under WAL with
 * synchronous = NORMAL (open-store.ts) a commit appends to hub.db-wal and returns; it is the
 * checkpoint, copying the WAL back into hub.db, that fsyncs (the WAL before it copies, the
 * database after). SQLite runs one inside whichever commit takes the WAL past 1,000 pages, so
 * every few hundred calls through a run, one call's journal commit waited on both fsyncs on the
 * thread that serves every run (tens of milliseconds on a slow disk; about a third of what the
 * journal's two commits per call cost on average).
 *
 * A process that runs code starts this thread: its own connection to hub.db, which copies new
 * commits into the database (a PASSIVE checkpoint: it never waits for, nor blocks, a reader or a
 * writer) whenever another connection committed since it last looked, every CHECKPOINT_EVERY_MS
 * while commits come and less often while none do. The serving connection still checkpoints
 * itself past BACKSTOP_PAGES (its default again should the thread stop), which under a steady
 * stream of commits also restarts the WAL from its start; a WAL that grew meanwhile is cut back
 * to WAL_KEPT_BYTES when it restarts, about what SQLite's default checkpoints left it at.
 *
 * What a commit guarantees is unchanged: it is in the WAL when it returns and survives the
 * process dying at any point after; a checkpoint only moves committed pages, with the same fsyncs,
 * on another thread.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the thread looks for commits to copy while they come. */
export const CHECKPOINT_EVERY_MS = 100;
/** The longest it waits between looks while none come. */
const IDLE_EVERY_MS = 2_000;
/** WAL pages past which the serving connection checkpoints itself anyway (SQLite's default: 1,000). */
export const BACKSTOP_PAGES = 10_000;
const SQLITE_DEFAULT_PAGES = 1_000;
/** The WAL file's size kept after it restarts (`journal_size_limit`): 1,000 pages of 4 KB. */
export const WAL_KEPT_BYTES = 4 * 1024 * 1024;

/**
 * The thread's script (CommonJS; it requires better-sqlite3 by the path this module resolved).
 * Told anything, it closes its connection and ends.
 */
const CHECKPOINTER = `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen;
let wait = workerData.everyMs;
let timer;
const look = () => {
  try {
    const now = version.get();
    if (now === seen) wait = Math.min(wait * 2, workerData.idleMs);
    else {
      seen = now;
      wait = workerData.everyMs;
      checkpoint.get();
    }
  } catch {
    // Busy (another process checkpointing, a recovery): the next look tries again.
  }
  timer = setTimeout(look, wait);
};
timer = setTimeout(look, wait);
parentPort.once('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Starts checkpointing the WAL of `sqlite` (the serving connection, opened on `path`) from a
 * thread of its own; returns what stops it. The thread never keeps the process alive.
 */
export function checkpointAside(sqlite: Database.Database, path: string): () => void {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { driver, path, everyMs: CHECKPOINT_EVERY_MS, idleMs: IDLE_EVERY_MS },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  worker.unref();
  let stopped = false;
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  sqlite.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  // A thread that cannot open the file, or dies, leaves the checkpoints to the connection again.
  const fallBack = () => {
    if (stopped || !sqlite.open) return;
    stopped = true;
    sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return () => {
    if (stopped) return;
    stopped = true;
    worker.postMessage('stop');
  };
}
