/**
 * The hub.db WAL checkpointed from a thread of its own (local/wal-checkpoints.ts): commits land
 * in hub.db without the committing connection checkpointing, and a thread that cannot run leaves
 * the checkpoints to that connection again, at SQLite's default.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalStore } from '../../local/open-store.ts';
import { BACKSTOP_PAGES, checkpointAside, WAL_KEPT_BYTES } from '../../local/wal-checkpoints.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('checkpointAside', () => {
  it('copies commits into hub.db from its own thread, and stops with the store', async () => {
    const path = join(dir, 'hub.db');
    const local = openLocalStore(path, Date.now());
    try {
      local.checkpointAside();
      local.checkpointAside();
      expect(local.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
      expect(local.sqlite.pragma('journal_size_limit', { simple: true })).toBe(WAL_KEPT_BYTES);
      const before = statSync(path).size;
      local.sqlite.exec('CREATE TABLE filler (text TEXT NOT NULL)');
      const insert = local.sqlite.prepare('INSERT INTO filler (text) VALUES (?)');
      // About 500 pages: far below the backstop, so only the thread copies them.
      for (let i = 0; i < 500; i++) insert.run('x'.repeat(3000));
      await until(() => statSync(path).size > before + 500 * 3000);
    } finally {
      local.close();
      local.close();
    }
  });

  it('leaves the checkpoints to the connection when its thread cannot open the file', async () => {
    const local = openLocalStore(join(dir, 'hub.db'), Date.now());
    try {
      const stop = checkpointAside(local.sqlite, join(dir, 'missing', 'hub.db'));
      await until(() => local.sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1_000);
      stop();
    } finally {
      local.close();
    }
  });
});
