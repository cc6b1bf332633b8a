/**
 * I6, "Resume never repeats a call" (spec: Security and approvals: "Resuming replays the journal
 * with the same seed and clock, so a call that already happened is never made twice"), when the
 * process running the run is killed at a step boundary.
 *
 * One local hub per test, configured through the CLI as a person would: the counting board
 * (test/fixtures/servers/counting-server.ts) writes every call it receives to a file (`slow_post`
 * writes `started <text>` first, then `post <text>` once done), so the test counts exactly what
 * reached the upstream. A process is SIGKILLed when that file shows the step the attack aims at
 * (test/invariants/i6-kit.ts); a new process then decides or resumes the run from the journal.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | MCP `execute` over `serve --http`, then CLI `hub approve` | the hub process is SIGKILLed while the run awaits a person; a person approves in a new process | yes: one post, a second approval refused |
 * | CLI `hub approve`, then `execute({ resume })` | the approving process is SIGKILLed just after the upstream answered, before or while the outcome is written; the run is resumed | yes: one post; the run ends completed (outcome journaled) or failed `outcome_unknown` (not journaled) |
 * | CLI `hub approve`, then `execute({ resume })` | the resuming process is SIGKILLed mid-call; the run is resumed again | yes: one post, the run ends failed `outcome_unknown`, a further approval refused |
 * | CLI `hub approve` ×2, then `execute({ resume })` | a two-call run: the first call done and journaled, the process SIGKILLed mid-second; the run is resumed | yes: each call once (the first replayed from the journal), the run ends failed `outcome_unknown` |
 *
 * Also held by: test/node/runs-crash.test.ts (SIGKILL mid-call of an allowed call, the lease
 * refusing an early resume, `runs show` saying "in doubt"), test/invariants/i6-never-twice.test.ts
 * (replayed and racing approvals), test/node/store-processes.test.ts (two processes resuming at
 * once), test/workers/runs.test.ts and test/workers/hub-alarm.test.ts (hosted).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addBoard, cli, hubHome, startServe } from '../node/cli-process.ts';
import { approveOnce, httpClient } from '../node/surface-fixture.ts';
import { boardLines, boardPosts, killWhenBoardShows, resumeAfterLease, storedRun } from './i6-kit.ts';

let home: string;
let remove: () => void;
let count: string;
beforeEach(() => {
  ({ home, remove } = hubHome());
  count = join(home, 'count.txt');
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
});
afterEach(() => remove());

/** `hub exec` of `code` as the model's run; the write asks, so the run waits for a person. */
function askedRun(code: string): string {
  const asked = cli(home, ['--json', 'hub', 'exec', code]);
  const envelope = JSON.parse(asked.stdout) as { runId: string; status: string };
  expect(envelope.status, asked.stderr).toBe('awaiting_approval');
  return envelope.runId;
}

it('attack: the hub process dies while the run awaits a person; approving in a new process posts once', async () => {
  const server = await startServe(home);
  const token = readFileSync(server.tokenFile, 'utf8').trim();
  const client = await httpClient(server.url, token, 'auto');
  const asked = await client.callTool({
    name: 'execute',
    arguments: { code: 'return await board.post({ text: "held" });' },
  });
  const envelope = asked.structuredContent as { runId: string; status: string };
  expect(envelope.status).toBe('awaiting_approval');
  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
  await client.close().catch(() => {});
  expect(boardPosts(count)).toEqual([]);

  const approved = approveOnce(home, envelope.runId);
  expect(approved.status, approved.stderr).toBe(0);
  expect(JSON.parse(approved.stdout)).toMatchObject({ status: 'completed' });
  expect(boardPosts(count)).toEqual(['post held']);
  expect(approveOnce(home, envelope.runId).status).not.toBe(0);
  expect(boardPosts(count)).toEqual(['post held']);
}, 60_000);

it('attack: the process dies just after the upstream answered; the resume does not call again', async () => {
  const runId = askedRun('return await board.slow_post({ text: "answered", ms: 200 });');
  const args = ['--json', 'hub', 'approve', runId, '--choice', 'once'];
  await killWhenBoardShows(home, args, count, 'post answered');
  expect(boardLines(count)).toEqual(['started answered', 'post answered']);

  // The kill lands on one side of the journal write or the other; both are defined states.
  const stored = storedRun(home, runId);
  const resumed = await resumeAfterLease(home, runId);
  if (stored.status === 'completed') {
    // The outcome was written (and the run finished) before the kill: nothing is left to resume.
    expect(stored.journal).toEqual([['board.slow_post', true]]);
    expect(resumed.status).toBe('refused');
    expect(JSON.stringify(resumed)).toContain('nothing to resume');
  } else if (resumed.status === 'completed') {
    // The outcome was written, the run not yet finished: the resume finishes it from the journal.
    expect(stored.journal).toEqual([['board.slow_post', true]]);
    expect(JSON.stringify(resumed)).toContain('answered');
  } else {
    // The outcome was not written: the call is in doubt, and is never sent again.
    expect(stored.journal).toEqual([['board.slow_post', undefined]]);
    expect(resumed.status).toBe('failed');
    expect(JSON.stringify(resumed)).toContain('outcome_unknown');
  }
  expect(boardLines(count)).toEqual(['started answered', 'post answered']);
}, 90_000);

it('attack: the resuming process dies mid-call; resumed again, the call is not repeated', async () => {
  const runId = askedRun('return await board.slow_post({ text: "resumed", ms: 1500 });');
  const args = ['--json', 'hub', 'approve', runId, '--choice', 'once'];
  await killWhenBoardShows(home, args, count, 'started resumed');

  const resumed = await resumeAfterLease(home, runId);
  expect(resumed.status).toBe('failed');
  expect(JSON.stringify(resumed)).toContain('outcome_unknown');
  // The orphaned board finished the one call it had; nothing asked it again.
  expect(boardLines(count)).toEqual(['started resumed', 'post resumed']);
  expect(approveOnce(home, runId).status).not.toBe(0);
  expect(boardPosts(count)).toEqual(['post resumed']);
}, 90_000);

it('attack: killed mid-second call of a two-call run; the resume replays the first from the journal', async () => {
  const runId = askedRun(
    'await board.post({ text: "one" }); return await board.slow_post({ text: "two", ms: 1500 });',
  );
  const first = approveOnce(home, runId);
  expect(first.status, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({ status: 'awaiting_approval' });
  expect(boardPosts(count)).toEqual(['post one']);
  const args = ['--json', 'hub', 'approve', runId, '--choice', 'once'];
  await killWhenBoardShows(home, args, count, 'started two');
  expect(storedRun(home, runId).journal).toEqual([
    ['board.post', true],
    ['board.slow_post', undefined],
  ]);

  const resumed = await resumeAfterLease(home, runId);
  expect(resumed.status).toBe('failed');
  expect(JSON.stringify(resumed)).toContain('outcome_unknown');
  expect(boardLines(count)).toEqual(['post one', 'started two', 'post two']);
}, 90_000);
