/**
 * Runs and profiles, end to end through the CLI and `hub serve --stdio`: a person's own runs at
 * the terminal (`hub call`, `hub exec`) see every tool whatever `default` shows; a profile removed
 * while its endpoint runs refuses new runs with how to list profiles, storing nothing; and a run
 * of a removed profile that a person then approves fails saying why, never left `running`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { hubHome, runCli } from './cli-process.ts';
import { addSources, stdioClient, textOf } from './surface-fixture.ts';

let home: string;
let remove: () => void;
const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  remove();
});

async function cliOk(args: string[]) {
  const result = await runCli(home, args);
  expect(result.status, result.stderr).toBe(0);
  return result;
}

function storedRuns() {
  const local = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  try {
    return local.store.listRuns();
  } finally {
    local.close();
  }
}

describe('runs and profiles', () => {
  it("runs a person's own CLI calls and code in the full view, whatever default shows", async () => {
    addSources(home);
    await cliOk(['hub', 'profiles', 'edit', 'default', '--tools', 'memory.read_graph']);
    const called = await cliOk(['hub', 'call', 'board.list_posts', '{}', '--json']);
    expect(JSON.parse(called.stdout)).toMatchObject({ status: 'completed' });
    const ran = await cliOk(['hub', 'exec', 'return await board.list_posts({})', '--json']);
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: 'completed' });
  }, 120_000);

  it('refuses a new run of a removed profile, and fails a waiting one when it goes on', async () => {
    const board = addSources(home);
    await cliOk(['hub', 'profiles', 'create', 'poster', '--mode', 'direct', '--tools', 'board.post']);
    await cliOk(['hub', 'profiles', 'create', 'coder']);
    const { client: poster } = await stdioClient(home, 'auto', {}, 'poster');
    closers.push(() => poster.close());
    const { client: coder } = await stdioClient(home, 'auto', {}, 'coder');
    closers.push(() => coder.close());

    const waiting = await poster.callTool({ name: 'board.post', arguments: { text: 'orphan' } });
    const runId = /^(run_\w+) awaiting_approval/.exec(textOf(waiting))?.[1];
    expect(runId, textOf(waiting)).toBeDefined();

    await cliOk(['hub', 'profiles', 'remove', 'poster']);
    await cliOk(['hub', 'profiles', 'remove', 'coder']);

    // A new run of the removed profile: refused, with how to list profiles; nothing stored.
    const refused = await coder.callTool({ name: 'execute', arguments: { code: 'return 1' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('no profile "coder"');
    expect(textOf(refused)).toContain('List them with `capabilities hub profiles list`.');
    expect(storedRuns().map((run) => run.id)).toEqual([runId]);

    // The waiting run goes on once approved: it fails saying why, and nothing is posted.
    const approved = await runCli(home, ['hub', 'approve', runId ?? '', '--choice', 'once', '--json']);
    expect(approved.stdout).toContain('which no longer exists');
    const [run] = storedRuns();
    expect(run?.status).toBe('failed');
    expect(run?.error?.message).toContain(`ran in profile poster, which no longer exists`);
    expect(board.posts()).toEqual([]);
  }, 120_000);
});
