/**
 * I6 (test/invariants/i6-never-twice.suite.ts) on a local hub, "Resume never repeats a call".
 *
 * One local hub per attack, configured through the CLI as a person would: the counting board
 * (test/fixtures/servers/counting-server.ts), which writes every call it receives to a file, so
 * the test counts exactly what reached the upstream. Runs start with `hub exec` and a person
 * decides with `hub approve`, each in its own CLI process.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | CLI `hub approve`, replayed | a decision replayed (once, always) after the run finished | refused; one post |
 * | CLI `hub approve` ×2 | two processes approve the same run at once | one decision, one post; the other refused or told the run is running |
 * | CLI `hub exec` + `hub approve` | the same code executed twice, each approval repeated | two runs, two posts |
 * | CLI `hub approve` ×2 in turn | a run of two writes: the second resume replays the first from the journal | each posted once |
 *
 * Also held by: test/node/runs-crash.test.ts (SIGKILL mid-call, outcome_unknown, lease),
 * test/node/runs.test.ts, test/node/store-processes.test.ts (two processes resuming at once),
 * test/workers/runs.test.ts and test/workers/hub-alarm.test.ts (hosted), and
 * test/invariants/under-load.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { addBoard, cli, hubHome, runCli } from '../node/cli-process.ts';
import { recorded } from './i2-kit.ts';
import { describeNeverTwice, type NeverTwiceBoard } from './i6-never-twice.suite.ts';

const homes: (() => void)[] = [];
afterEach(() => {
  for (const remove of homes.splice(0)) remove();
});

function localBoard(): NeverTwiceBoard {
  const { home, remove } = hubHome();
  homes.push(remove);
  const count = join(home, 'count.txt');
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  return {
    execute: async (code) => {
      const asked = cli(home, ['--json', 'hub', 'exec', code]);
      expect(asked.status, asked.stderr).toBe(0);
      return JSON.parse(asked.stdout) as { runId: string; status: string };
    },
    approve: async (runId, choice = 'once') => {
      const approved = cli(home, ['--json', 'hub', 'approve', runId, '--choice', choice]);
      if (approved.status !== 0) return { refused: true, said: `${approved.stdout}${approved.stderr}` };
      const { status, result } = JSON.parse(approved.stdout) as { status: string; result?: unknown };
      return { refused: false, status, result };
    },
    // Two processes at once. One decides and runs the call. The other is refused (the call was
    // decided already), or, finding nothing left to decide while the winner's attempt runs,
    // reports the run running and decides nothing. Which of the two depends on timing.
    approveRacing: async (runId) => {
      const args = ['--json', 'hub', 'approve', runId, '--choice', 'once'];
      const results = await Promise.all([runCli(home, args), runCli(home, args)]);
      expect(results.some((r) => r.status === 0)).toBe(true);
      for (const result of results) {
        if (result.status === 0) {
          expect(['running', 'completed']).toContain(
            (JSON.parse(result.stdout) as { status: string }).status,
          );
        } else
          expect(`${result.stdout}${result.stderr}`).toMatch(
            /already decided|not waiting for a decision|busy|running/,
          );
      }
    },
    decisions: async (runId) => recorded(home, runId).decisions.length,
    posts: async () =>
      existsSync(count)
        ? readFileSync(count, 'utf8')
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('post'))
        : [],
  };
}

describeNeverTwice({ name: 'local', board: async () => localBoard() });
