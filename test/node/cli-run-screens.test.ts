/**
 * What the CLI's run screens say of a run (issue #21), with the real CLI against a temp hub with
 * the counting board: a denied call's message names the address once, and `hub runs` and
 * `runs show` speak the run's statuses (`awaiting_input`) while the commands that run code print
 * the envelope's (`awaiting_approval`), one vocabulary per screen.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { addBoard, cli, hubHome } from './cli-process.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
  expect(addBoard(home, join(home, 'count.txt')).status).toBe(0);
}, 30_000);
afterEach(() => remove());

/** `hub call board.post`, which asks a person: the envelope, awaiting approval. */
function askToPost(): ExecuteEnvelope {
  const asked = cli(home, ['--json', 'hub', 'call', 'board.post', '{"text":"hi"}']);
  expect(asked.status, asked.stderr).toBe(0);
  const envelope = JSON.parse(asked.stdout) as ExecuteEnvelope;
  expect(envelope.status).toBe('awaiting_approval');
  return envelope;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the CLI on runs', () => {
  it('names the address of a denied call once', () => {
    const { runId } = askToPost();
    const denied = cli(home, ['--json', 'hub', 'approve', runId, '--choice', 'deny']);
    expect(denied.status).toBe(1);
    const envelope = JSON.parse(denied.stdout) as ExecuteEnvelope;
    expect(envelope.error?.code).toBe('approval_denied');
    expect(envelope.error?.message).toMatch(/^ToolError: board\.post: a person denied this call\b/);
    expect(occurrences(envelope.error?.message ?? '', 'board.post')).toBe(1);
    const shown = cli(home, ['hub', 'runs', 'show', runId]);
    const errorLine = shown.stdout.split('\n').find((line) => line.startsWith('error ')) ?? '';
    expect(occurrences(errorLine, 'board.post')).toBe(1);
  });

  it('lists and shows a waiting run with the same status word, the run’s', () => {
    const { runId } = askToPost();
    const listed = cli(home, ['hub', 'runs']);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(runId)) ?? '';
    expect(row).toMatch(new RegExp(`^${runId} {2}awaiting_input `));
    const shown = cli(home, ['hub', 'runs', 'show', runId]);
    expect(shown.stdout.split('\n')[0]).toBe(`run ${runId}: awaiting_input`);
    expect(shown.stdout).not.toContain('awaiting_approval');
    // `--status` takes the same word the list shows.
    const waiting = JSON.parse(cli(home, ['--json', 'hub', 'runs', '--status', 'awaiting_input']).stdout) as {
      runs: Array<{ id: string; status: string }>;
    };
    expect(waiting.runs.map((r) => [r.id, r.status])).toEqual([[runId, 'awaiting_input']]);
  });

  it('lists the newest runs up to --limit, and says when it cut the list', () => {
    const first = askToPost().runId;
    const second = askToPost().runId;
    const cut = cli(home, ['--json', 'hub', 'runs', '--limit', '1']);
    expect((JSON.parse(cut.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([second]);
    expect(cut.stderr).toContain('The newest 1 runs; --limit <n> shows more.');
    const all = cli(home, ['--json', 'hub', 'runs', '--limit', '5']);
    expect((JSON.parse(all.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([
      second,
      first,
    ]);
    expect(all.stderr).not.toContain('--limit');
    const bad = cli(home, ['hub', 'runs', '--limit', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--limit takes a whole number of runs, 1 or more, not 0');
  });
});
