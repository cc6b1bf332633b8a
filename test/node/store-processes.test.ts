/**
 * Several processes share one hub: four start at once on an empty home (each creating what
 * is missing), then all write runs and journals into the one hub.db. Nothing is lost, no
 * process fails on a busy database, and they all agree on one hub id.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { cliEnv, hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const SCRIPT = join(REPO, 'test', 'node', 'store-processes.ts');

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

function worker(
  name: string,
  runs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(NODE, ['--disable-warning=ExperimentalWarning', SCRIPT, name, String(runs)], {
    env: cliEnv(home),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
  });
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

it('four processes open and write one hub at once without losing a record', async () => {
  const results = await Promise.all(['a', 'b', 'c', 'd'].map((name) => worker(name, 25)));
  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
  const ids = new Set(results.map((r) => (JSON.parse(r.stdout) as { hubId: string }).hubId));
  expect(ids.size).toBe(1);

  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  try {
    const runs = hub.store.listRuns({ status: 'completed', limit: 1000 });
    expect(runs).toHaveLength(100);
    for (const run of runs)
      expect(hub.store.listJournal(run.id).map((e) => e.outcome?.ok)).toEqual([true, true, true]);
  } finally {
    hub.close();
  }
});
