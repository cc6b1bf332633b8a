/** Runs the hostile-source contract against the local hub's SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalStore } from '../../local/open-store.ts';
import { describeHostileSource } from '../conformance/hostile-source.suite.ts';

describeHostileSource({
  name: 'local sqlite file',
  async withStore(body) {
    const dir = mkdtempSync(join(tmpdir(), 'capabilities-hostile-'));
    const local = openLocalStore(join(dir, 'hub.db'), 1_800_000_000_000);
    try {
      await body(local.store);
    } finally {
      local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
