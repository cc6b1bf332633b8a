/**
 * I6, "Resume never repeats a call" (spec: Security and approvals: "Resuming replays the journal
 * with the same seed and clock, so a call that already happened is never made twice").
 *
 * One local hub per test, configured through the CLI as a person would: the counting board
 * (test/fixtures/servers/counting-server.ts), which writes every call it receives to a file, so
 * the test counts exactly what reached the upstream. Runs start with `hub exec` and a person
 * decides with `hub approve`, each in its own CLI process.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | CLI `hub approve` | a decision replayed after the run finished | yes: one post, the replay is refused |
 * | CLI `hub approve` ×2 | two processes approve the same run at once | yes: one decision, one post; the other refused or told the run is running |
 * | CLI `hub exec` + `hub approve` | the same code executed twice, each approval repeated | yes: two runs, two posts |
 * | CLI `hub approve` ×2 in turn | a run of two writes: the second resume replays the first from the journal | yes: each posted once |
 *
 * Also held by: test/node/runs-crash.test.ts (SIGKILL mid-call, outcome_unknown, lease),
 * test/node/runs.test.ts, test/node/store-processes.test.ts (two processes resuming at once),
 * test/workers/runs.test.ts and test/workers/hub-alarm.test.ts (hosted), and
 * test/invariants/under-load.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addBoard, cli, hubHome, runCli } from '../node/cli-process.ts';
import { approveOnce } from '../node/surface-fixture.ts';
import { recorded } from './i2-kit.ts';

let home: string;
let remove: () => void;
let count: string;
beforeEach(() => {
  ({ home, remove } = hubHome());
  count = join(home, 'count.txt');
});
afterEach(() => remove());

const posts = () =>
  existsSync(count)
    ? readFileSync(count, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('post'))
    : [];

it('attack: a decision replayed after the run finished makes no second call', () => {
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  const asked = cli(home, ['--json', 'hub', 'exec', 'return await board.post({ text: "once" });']);
  const envelope = JSON.parse(asked.stdout) as { runId: string; status: string };
  expect(envelope.status).toBe('awaiting_approval');
  const first = approveOnce(home, envelope.runId);
  expect(first.status, first.stderr).toBe(0);
  expect(posts()).toEqual(['post once']);
  const replay = approveOnce(home, envelope.runId);
  expect(replay.status).not.toBe(0);
  expect(`${replay.stdout}${replay.stderr}`.length).toBeGreaterThan(0);
  expect(posts()).toEqual(['post once']);
}, 60_000);

it('attack: the same code executed twice is two runs; repeating each approval is not a further call', () => {
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  const code = 'return await board.post({ text: "same" });';
  const runIds = [0, 1].map(() => {
    const asked = cli(home, ['--json', 'hub', 'exec', code]);
    const envelope = JSON.parse(asked.stdout) as { runId: string; status: string };
    expect(envelope.status).toBe('awaiting_approval');
    return envelope.runId;
  });
  expect(new Set(runIds).size).toBe(2);
  for (const runId of runIds) {
    const first = approveOnce(home, runId);
    expect(first.status, first.stderr).toBe(0);
    expect(approveOnce(home, runId).status).not.toBe(0);
  }
  expect(posts()).toEqual(['post same', 'post same']);
}, 60_000);

it('attack: two processes approve the same run at once; one decision, one call, and the other is told', async () => {
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  const asked = cli(home, ['--json', 'hub', 'exec', 'return await board.post({ text: "raced" });']);
  const { runId } = JSON.parse(asked.stdout) as { runId: string };
  const args = ['--json', 'hub', 'approve', runId, '--choice', 'once'];
  const results = await Promise.all([runCli(home, args), runCli(home, args)]);
  // One decides and runs the call. The other is refused (the call was decided already), or,
  // finding nothing left to decide while the winner's attempt runs, reports the run running and
  // decides nothing. Which of the two depends on timing; neither makes a call.
  expect(results.some((r) => r.status === 0)).toBe(true);
  for (const result of results) {
    if (result.status === 0) {
      expect(['running', 'completed']).toContain((JSON.parse(result.stdout) as { status: string }).status);
    } else
      expect(`${result.stdout}${result.stderr}`).toMatch(
        /already decided|not waiting for a decision|busy|running/,
      );
  }
  expect(recorded(home, runId).decisions).toHaveLength(1);
  expect(posts()).toEqual(['post raced']);
}, 60_000);

it('attack: a run of two writes approved in turn replays the first from the journal; each is posted once', () => {
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  const code = 'await board.post({ text: "first" }); await board.post({ text: "second" }); return "done";';
  const asked = cli(home, ['--json', 'hub', 'exec', code]);
  const { runId, status } = JSON.parse(asked.stdout) as { runId: string; status: string };
  expect(status).toBe('awaiting_approval');
  const first = approveOnce(home, runId);
  expect(first.status, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({ status: 'awaiting_approval' });
  expect(posts()).toEqual(['post first']);
  // The second resume runs the code from the top: the first post comes from the journal.
  const second = approveOnce(home, runId);
  expect(second.status, second.stderr).toBe(0);
  expect(JSON.parse(second.stdout)).toMatchObject({ status: 'completed', result: 'done' });
  expect(posts()).toEqual(['post first', 'post second']);
}, 60_000);
