/**
 * I3 (test/invariants/i3-authority.suite.ts) on a local hub: one hub per attack in a temp home,
 * configured through the CLI as a person would: the counting board
 * (test/fixtures/servers/counting-server.ts), which writes every call it receives to a file;
 * files beside that one change what the board says about itself at its next start (a
 * description, `post`'s annotations, a new tool). A person says `always` with `hub approve
 * --choice always` and reads the board again with `hub refresh`; the agent runs `hub exec`. A
 * rule on a whole source has no CLI face on the local hub (it arrives by a configuration), so the
 * deny attack writes it into the hub's store as that configuration would.
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
import { afterEach, expect } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { openLocalStore } from '../../local/open-store.ts';
import { addBoard, cli, hubHome } from '../node/cli-process.ts';
import { type AuthorityBoard, describeAuthority } from './i3-authority.suite.ts';

const homes: (() => void)[] = [];
afterEach(() => {
  for (const remove of homes.splice(0)) remove();
});

function localBoard(): AuthorityBoard {
  const { home, remove } = hubHome();
  homes.push(remove);
  const count = join(home, 'count.txt');
  const added = addBoard(home, count);
  expect(added.status, added.stderr).toBe(0);
  const ok = (args: string[]) => {
    const result = cli(home, args);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  return {
    execute: async (code) => JSON.parse(ok(['--json', 'hub', 'exec', code])) as ExecuteEnvelope,
    always: async (run) => {
      ok(['--json', 'hub', 'approve', run.runId, '--choice', 'always']);
    },
    change: async (change) => {
      if (change.postDescription !== undefined)
        writeFileSync(`${count}.post-description`, change.postDescription);
      if (change.postAnnotations)
        writeFileSync(`${count}.post-annotations`, JSON.stringify(change.postAnnotations));
      if (change.newTool) writeFileSync(`${count}.new-tool`, '');
    },
    refresh: async () => {
      ok(['hub', 'refresh', 'board']);
    },
    addRules: async (rules) => {
      const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
      try {
        for (const rule of rules) local.store.addPolicyRule(rule);
      } finally {
        local.close();
      }
    },
    calls: async () =>
      existsSync(count) ? readFileSync(count, 'utf8').trim().split('\n').filter(Boolean) : [],
  };
}

describeAuthority({ name: 'local', board: async () => localBoard() });
