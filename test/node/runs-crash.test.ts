/**
 * Resume never repeats a call (invariant I6), across a process that dies. The local hub runs in
 * a real CLI process; the test kills it with SIGKILL mid-call, then a new process picks the run
 * up from the journal. The upstream (a counting server) proves what reached it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ATTEMPT_LEASE_MS, Runs } from '../../engine/runs/runs.ts';
import type { Sandbox } from '../../engine/sandbox/sandbox.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { localWording } from '../../local/wording.ts';
import { BIN, cli, cliEnv, hubHome, REPO } from './cli-process.ts';
import { addSources } from './surface-fixture.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');

let home: string;
let remove: () => void;
let count: string;
beforeEach(() => {
  ({ home, remove } = hubHome());
  count = join(home, 'count.txt');
});
afterEach(() => remove());

const lines = () => (existsSync(count) ? readFileSync(count, 'utf8').trim().split('\n') : []);

/** The board (and memory) added through the CLI, then the person allows the whole board. */
function addBoard(): void {
  expect(addSources(home).countFile).toBe(count);
  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  expect(hub.store.getSource('board')).toMatchObject({ env: { COUNT_FILE: count } });
  // The person allows the whole board: the review's per-tool `ask` rules make way for one source rule.
  for (const rule of hub.store.listPolicyRules()) hub.store.removePolicyRule(rule.id);
  hub.store.addPolicyRule({
    id: 'allow-board',
    target: { kind: 'source', namespace: 'board' },
    effect: 'allow',
    createdAt: 0,
  });
  hub.close();
}

it('a process killed mid-call: the new process never sends the call again, the run ends outcome_unknown', async () => {
  addBoard();
  const code =
    'await board.post({ text: "first" }); await board.slow_post({ text: "second", ms: 1500 }); return "done";';
  const child = spawn(BIN, ['--json', 'hub', 'exec', code], {
    env: cliEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  for (let i = 0; i < 200 && !lines().includes('started second'); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(lines(), output).toEqual(['post first', 'started second']);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  const [run] = hub.store.listRuns();
  if (!run) throw new Error('no run was recorded');
  expect(run.status).toBe('running');
  expect(hub.store.listJournal(run.id).map((e) => [e.address, e.outcome?.ok])).toEqual([
    ['board.post', true],
    ['board.slow_post', undefined],
  ]);
  // Right after the kill the attempt's lease still holds: a resume is told to come back, and
  // nothing runs (the sandbox here throws if it is ever asked to). Checked in this process at
  // once, so a slow machine cannot let the lease run out first.
  const unused: Sandbox = {
    run: () => Promise.reject(new Error('a resume inside the lease must not run the code')),
    close: async () => {},
  };
  const early = new Runs({
    wording: localWording,
    store: hub.store,
    sandbox: unused,
    clock: { now: () => Date.now() },
    random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    upstream: () => Promise.reject(new Error('a resume inside the lease must not call upstream')),
    lookup: () => Promise.reject(new Error('unused')),
  });
  await expect(early.resume(run.id)).rejects.toThrow('is being run by another attempt right now');
  hub.close();
  // The orphaned server finishes the call it had, and the lease runs out; a repeat would show.
  await new Promise((r) => setTimeout(r, ATTEMPT_LEASE_MS));
  const shown = cli(home, ['hub', 'runs', 'show', run.id]);
  expect(shown.stdout).toMatch(/1 {2}board\.slow_post .* in doubt/);
  const resumed = resumeInNewProcess(run.id);
  expect(resumed.status).toBe('failed');
  expect(JSON.stringify(resumed)).toContain('outcome_unknown');
  expect(lines()).toEqual(['post first', 'started second', 'post second']);
}, 90_000); // six processes and one lease of waiting: more than the default 30 s on a loaded 2-core machine

/** `execute({ resume })` from a new process, as the MCP surface will call it. */
function resumeInNewProcess(runId: string): {
  status: string;
  error?: { code: string; message: string } | string;
} {
  const script = join(REPO, 'test', 'node', 'resume-run.ts');
  const result = spawnSync(NODE, ['--disable-warning=ExperimentalWarning', script, runId], {
    env: cliEnv(home),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}
