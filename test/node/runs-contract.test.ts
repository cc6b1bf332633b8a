/** Runs the run contract and the tool-names suite on the local host: the SQLite file and QuickJS. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { describeRuns, type RunsHarness } from '../conformance/runs.suite.ts';
import { describeRunAnswers } from '../conformance/runs-answers.suite.ts';
import { describeRunNames } from '../conformance/runs-names.suite.ts';

const sandbox = new QuickJsSandbox({ poolSize: 2 });
afterAll(() => sandbox.close());

const harness: RunsHarness = {
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
};

describeRuns(harness);
describeRunNames(harness);
describeRunAnswers(harness);
