/** Runs the run contract on the local host: the hub's SQLite file and the QuickJS sandbox. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs-sandbox.ts';
import { describeRuns } from '../conformance/runs.suite.ts';

const sandbox = new QuickJsSandbox({ poolSize: 2 });
afterAll(() => sandbox.close());

describeRuns({
  name: 'local sqlite file and QuickJS',
  async withHost(body) {
    const dir = mkdtempSync(join(tmpdir(), 'capabilities-runs-'));
    const local = openLocalStore(join(dir, 'hub.db'), 1_800_000_000_000);
    try {
      await body({ store: local.store, sandbox });
    } finally {
      local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
