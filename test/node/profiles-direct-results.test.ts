/**
 * A direct tool answers what the call returned, whole, with real peers: `hub serve --stdio` for a
 * direct-mode profile over the large fixture server (large-server.ts). A result over the
 * envelope's inline budget and one kept as a handle of its run both come back as the value the
 * upstream gave, never as an error (the call happened: an error would have the model call again).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInputs } from '../../engine/approvals/open-inputs.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { cli, hubHome, REPO, runCli } from './cli-process.ts';
import { addSources, NODE, stdioClient, textOf } from './surface-fixture.ts';

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

/** Adds the large fixture server as `large` (read-only tools: they run without asking). */
function addLarge(): void {
  const server = join(REPO, 'test', 'fixtures', 'servers', 'large-server.ts');
  const added = cli(home, [
    ...['hub', 'add', '--yes', '--namespace', 'large', '--'],
    ...[NODE, '--disable-warning=ExperimentalWarning', server],
  ]);
  expect(added.status, added.stderr).toBe(0);
}

describe('a direct tool with a large result', () => {
  it('answers the whole value, over the inline budget and as a handle alike', async () => {
    addLarge();
    const created = await runCli(home, [
      ...['hub', 'profiles', 'create', 'reader', '--mode', 'direct', '--tools', 'large.items,large.text'],
    ]);
    expect(created.status, created.stderr).toBe(0);
    const { client } = await stdioClient(home, 'auto', {}, 'reader');
    closers.push(() => client.close());

    // ~40 KB: over the envelope's 24 KB inline budget, under the 64 KB a handle starts at.
    const middling = await client.callTool({ name: 'large.items', arguments: { megabytes: 0.04 } });
    expect(middling.isError, textOf(middling).slice(0, 300)).toBeFalsy();
    const some = JSON.parse(textOf(middling)) as { items: { id: number }[] };
    expect(some.items).toHaveLength(Math.ceil((0.04 * 1024 * 1024) / 1000));

    // ~300 KB: kept as a handle of its run, read back whole from the run's blob.
    const large = await client.callTool({ name: 'large.items', arguments: { megabytes: 0.3 } });
    expect(large.isError, textOf(large).slice(0, 300)).toBeFalsy();
    const all = JSON.parse(textOf(large)) as { items: { id: number; title: string }[] };
    expect(all.items).toHaveLength(Math.ceil((0.3 * 1024 * 1024) / 1000));
    expect(all.items.at(-1)?.title).toBe(`item ${all.items.length - 1}`);

    // Text kept as a handle is the text itself, not its JSON.
    const text = await client.callTool({ name: 'large.text', arguments: { megabytes: 0.2 } });
    expect(text.isError).toBeFalsy();
    expect(textOf(text).startsWith('héllo abc abc')).toBe(true);
    expect(textOf(text).length).toBeGreaterThan(0.2 * 1024 * 1024);
  }, 120_000);

  it('passes arguments of a call\'s size and with many elements to the upstream; one-call code keeps a "__proto__" key', async () => {
    const board = addSources(home);
    const created = await runCli(home, [
      ...[
        'hub',
        'profiles',
        'create',
        'poster',
        '--mode',
        'direct',
        '--tools',
        'board.post,memory.open_nodes',
      ],
    ]);
    expect(created.status, created.stderr).toBe(0);
    const { client } = await stdioClient(home, 'auto', {}, 'poster');
    closers.push(() => client.close());

    // 300 names: over the 256 elements the three code-mode tools' inputs may hold.
    const names = Array.from({ length: 300 }, (_, n) => `entity ${n}`);
    const opened = await client.callTool({ name: 'memory.open_nodes', arguments: { names } });
    expect(opened.isError, textOf(opened)).toBeFalsy();

    // 100 KB of text: over the 64 KB code a model writes may take, well within a call's input.
    const text = 'y'.repeat(100 * 1024);
    const waiting = await client.callTool({ name: 'board.post', arguments: { text } });
    const line = textOf(waiting);
    const runId = /^(run_\w+) awaiting_approval/.exec(line)?.[1];
    expect(runId, line.slice(0, 300)).toBeDefined();
    const approved = await runCli(home, ['hub', 'approve', runId ?? '', '--choice', 'once']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(board.posts()).toEqual([`post ${text}`]);

    // A "__proto__" key stays a key of the code's input, not the prototype of an object literal.
    // (The MCP SDK's own parsing of tools/call drops such a key before the hub sees it; `hub call`
    // passes the person's JSON as it is.)
    const proto = '{"text":"p","__proto__":{"polluted":true}}';
    const called = await runCli(home, ['hub', 'call', 'board.post', proto, '--json']);
    expect(called.status, called.stderr).toBe(0);
    const secondRun = /"runId":\s*"(run_\w+)"/.exec(called.stdout)?.[1];
    expect(secondRun, called.stdout).toBeDefined();
    const local = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
    try {
      const pending = local.store.getRun(secondRun ?? '');
      expect(pending?.code).toBe(
        'return await board.post(JSON.parse("{\\"text\\":\\"p\\",\\"__proto__\\":{\\"polluted\\":true}}"));',
      );
      expect(openInputs(local.store, secondRun ?? '').map((input) => input.address)).toEqual(['board.post']);
    } finally {
      local.close();
    }
  }, 120_000);
});
