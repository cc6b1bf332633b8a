/** Runs the HubStore contract against the local hub's SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLocalStore } from '../../local/open-store.ts';
import { describeHubStore } from '../conformance/hub-store.suite.ts';

describeHubStore({
  name: 'local sqlite file',
  async withStore(body) {
    const dir = mkdtempSync(join(tmpdir(), 'capabilities-store-'));
    const local = openLocalStore(join(dir, 'hub.db'), 1_800_000_000_000);
    try {
      await body({ store: local.store, exec: (sql) => local.sqlite.exec(sql) });
    } finally {
      local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
