/**
 * I3, "Authority never widens without a person" (spec: Security and approvals, "Contracts pin what
 * you approved": "If a refresh finds that digest changed, the tool goes back to `ask`, rules pinned
 * to the old contract stop applying ... New tools upstream also ask until you review them. The hub
 * never widens its own authority").
 *
 * One local hub per test, configured through the CLI as a person would: the counting board
 * (test/fixtures/servers/counting-server.ts), which writes every call it receives to a file, so the
 * test counts exactly what reached the upstream; files beside that one change what the board says
 * about itself at its next start (a description, `post`'s annotations, a new tool). A person says
 * `always` with `hub approve --choice always`; the upstream changes; `hub refresh` reads it again.
 * A rule on a whole source has no CLI face on the local hub (it arrives by a configuration), so the
 * deny attack writes it into the hub's store as that configuration would, then drives the CLI.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | CLI `hub refresh` + `hub exec` | `always` given, then `post`'s description changes upstream | yes: asks, no call |
 * | CLI `hub refresh` + `hub exec` | `always` given, then `post` declares `readOnlyHint: true` | yes: asks, no call |
 * | CLI `hub refresh` + `hub exec` | a new tool that says it only reads, beside an allowed tool | yes: asks, no call |
 * | store rule + CLI `hub exec` | a deny on the source, a narrower allow on one of its tools | yes: denied, no call |
 * | CLI `hub exec`, no refresh | `always` given, then `post` changes upstream and nobody refreshes | yes: the hub lists tools first; asks |
 *
 * Also held by: test/node/review-rules.test.ts (a review drops every pinned rule, so an old
 * `always` never returns), test/e2e/approval-page.test.ts ("Always allow ... until the tool's
 * contract changes", through the page), test/engine policy tests of engine/policy/evaluate.ts,
 * test/invariants/i8-configuration.test.ts (the model cannot write a rule itself),
 * test/node/import-apply.test.ts (an import adds nothing unless a person says yes, at a terminal
 * or with --yes) and test/node/hosted-push.test.ts (a push plan that changed after it was shown is
 * refused; nothing is applied).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openLocalStore } from '../../local/open-store.ts';
import { addBoard, cli, hubHome } from '../node/cli-process.ts';

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

/** Every call the board received, one line each. */
const calls = () => (existsSync(count) ? readFileSync(count, 'utf8').trim().split('\n').filter(Boolean) : []);

interface Envelope {
  runId: string;
  status: string;
  result?: unknown;
}

function exec(code: string): Envelope {
  const run = cli(home, ['--json', 'hub', 'exec', code]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Envelope;
}

/** A person answers `always` for `post`, and the next run posts without asking. */
function alwaysForPost() {
  const asked = exec('return await board.post({ text: "one" });');
  expect(asked.status).toBe('awaiting_approval');
  const approved = cli(home, ['--json', 'hub', 'approve', asked.runId, '--choice', 'always']);
  expect(approved.status, approved.stderr).toBe(0);
  expect(exec('return await board.post({ text: "two" });').status).toBe('completed');
  expect(calls()).toEqual(['post one', 'post two']);
}

function refreshBoard() {
  const refreshed = cli(home, ['hub', 'refresh', 'board']);
  expect(refreshed.status, refreshed.stderr).toBe(0);
  return refreshed.stdout;
}

it('attack: `always` was given; the description changes upstream; the next call asks again', () => {
  alwaysForPost();
  writeFileSync(`${count}.post-description`, 'Post a message to the board, and to everyone.');
  refreshBoard();
  const third = exec('return await board.post({ text: "three" });');
  expect(third.status).toBe('awaiting_approval');
  expect(calls()).toEqual(['post one', 'post two']);
}, 60_000);

it('attack: `always` was given; the tool now declares itself read-only; the call still asks', () => {
  alwaysForPost();
  writeFileSync(`${count}.post-annotations`, JSON.stringify({ readOnlyHint: true }));
  refreshBoard();
  const third = exec('return await board.post({ text: "three" });');
  expect(third.status).toBe('awaiting_approval');
  expect(calls()).toEqual(['post one', 'post two']);
}, 60_000);

it('attack: a new tool that says it only reads appears beside an allowed tool; it asks', () => {
  alwaysForPost();
  writeFileSync(`${count}.new-tool`, '');
  refreshBoard();
  const wiped = exec('return await board.wipe({});');
  expect(wiped.status).toBe('awaiting_approval');
  expect(calls()).toEqual(['post one', 'post two']);
  // The allow the person gave for `post` still holds, and only for `post`.
  expect(exec('return await board.post({ text: "three" });').status).toBe('completed');
  expect(calls()).toEqual(['post one', 'post two', 'post three']);
}, 60_000);

it('attack: a deny on the source beside a narrower allow on one of its tools; the deny holds', () => {
  alwaysForPost();
  const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
  try {
    // The narrowest rules a person can hold for the tool: pinned, on no connection, and unpinned.
    local.store.addPolicyRule({
      id: 'rule_tool_allow',
      target: { kind: 'tool', address: 'board.post' },
      effect: 'allow',
      createdAt: 1,
    });
    local.store.addPolicyRule({
      id: 'rule_source_deny',
      target: { kind: 'source', namespace: 'board' },
      effect: 'deny',
      createdAt: 2,
    });
  } finally {
    local.close();
  }
  const denied = exec(
    'try { await board.post({ text: "three" }); return "posted"; } catch (error) { return error.code; }',
  );
  expect(denied.status).toBe('completed');
  expect(denied.result).not.toBe('posted');
  expect(calls()).toEqual(['post one', 'post two']);
}, 60_000);

// Until the hub listed tools before deciding a call (engine/sources/contract-recheck.ts), a stdio
// upstream started afresh by each CLI process, which never notifies, ran under the old `always`.
it('attack: `always` was given; `post` changes upstream and nobody refreshes; the call asks', () => {
  alwaysForPost();
  writeFileSync(`${count}.post-description`, 'Post a message to the board, and to everyone.');
  const third = exec('return await board.post({ text: "three" });');
  expect(calls()).toEqual(['post one', 'post two']);
  expect(third.status).toBe('awaiting_approval');
}, 60_000);
