/**
 * A direct-mode profile end to end, with real peers: `hub profiles create --mode direct` through
 * the CLI, then the official v2 client on `hub serve --stdio --profile writer`. Its tools/list is
 * exactly the profile's tools, each as the upstream server itself lists it (compared with the
 * upstream's own tools/list, over its own stdio); a read answers the upstream's structured value;
 * a write is asked in the client's prompt and approved there, reaches the board once, and is
 * journaled as a one-call run of the profile; a tool the profile hides cannot be called; and when
 * the profile is edited by another process the server says its list changed.
 */
import { Client, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callCode } from '../../engine/one-call.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { BIN, cliEnv, hubHome, REPO, runCli } from './cli-process.ts';
import { addSources, MEMORY, NODE, textOf } from './surface-fixture.ts';

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

const env = (extra: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(cliEnv(home, extra)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/**
 * An official client on `command`, kept until the test ends: it answers a prompt `once` (calling
 * `prompt`), and follows the tool list (`onTools`: on the 2026-07-28 era, through the
 * subscriptions/listen stream the client opens for it).
 */
async function connect(
  command: string,
  args: string[],
  extra: Record<string, string> = {},
  prompt?: () => void,
  onTools?: (tools: Tool[]) => void,
) {
  const client = new Client(
    { name: 'profiles-e2e', version: '1.0.0' },
    {
      versionNegotiation: { mode: 'auto' },
      capabilities: { elicitation: { form: {} } },
      ...(onTools
        ? { listChanged: { tools: { debounceMs: 0, onChanged: (_error, tools) => tools && onTools(tools) } } }
        : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async () => {
    prompt?.();
    return { action: 'accept', content: { decision: 'once' } };
  });
  await client.connect(new StdioClientTransport({ command, args, env: env(extra), stderr: 'pipe' }));
  closers.push(() => client.close());
  return client;
}

/**
 * What a tool definition says, without its name (direct mode names it by address) and its
 * `execution` (task support is the server's own to declare: the hub serves every call as a run).
 */
const definition = ({ name: _name, execution: _execution, ...rest }: Tool) => rest;

describe('a direct-mode profile over stdio', () => {
  it('lists exactly its tools as upstream does, asks for a write in the client, journals each call as a run', async () => {
    const board = addSources(home);
    const created = await runCli(home, [
      ...['hub', 'profiles', 'create', 'writer', '--mode', 'direct'],
      ...['--tools', 'memory.read_graph,memory.create_entities,board.post'],
    ]);
    expect(created.status, created.stderr).toBe(0);

    let asked = 0;
    const lists: string[][] = [];
    const hub = await connect(
      BIN,
      ['hub', 'serve', '--stdio', '--profile', 'writer'],
      {},
      () => asked++,
      (tools) => lists.push(tools.map((t) => t.name)),
    );
    expect(hub.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const { tools } = await hub.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'board.post',
      'memory.create_entities',
      'memory.read_graph',
    ]);

    // Each is the upstream's own definition: the same schemas, description and annotations.
    const memory = await connect(NODE, [MEMORY], { MEMORY_FILE_PATH: `${home}/upstream-memory.jsonl` });
    const boardUpstream = await connect(
      NODE,
      ['--disable-warning=ExperimentalWarning', `${REPO}/test/fixtures/servers/counting-server.ts`],
      { COUNT_FILE: `${home}/upstream-count.txt` },
    );
    const upstream = new Map<string, Tool>();
    for (const tool of (await memory.listTools()).tools) upstream.set(`memory.${tool.name}`, tool);
    for (const tool of (await boardUpstream.listTools()).tools) upstream.set(`board.${tool.name}`, tool);
    for (const tool of tools) {
      const own = upstream.get(tool.name);
      expect(own, tool.name).toBeDefined();
      if (own) expect(definition(tool), tool.name).toEqual(definition(own));
    }
    expect(tools.find((t) => t.name === 'memory.read_graph')?.outputSchema).toBeDefined();

    // A read runs under policy without asking and answers the upstream's structured value.
    const read = await hub.callTool({ name: 'memory.read_graph', arguments: {} });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toEqual({ entities: [], relations: [] });
    expect(asked).toBe(0);

    // A write asks in the client's own prompt; approved there, it reaches the board once.
    const posted = await hub.callTool({ name: 'board.post', arguments: { text: 'hello' } });
    expect(posted.isError, textOf(posted)).toBeFalsy();
    expect(JSON.parse(textOf(posted))).toEqual({ id: 1, text: 'hello' });
    expect(asked).toBe(1);
    expect(board.posts()).toEqual(['post hello']);

    // Both calls are runs of the profile, journaled like any execute, the decision recorded once.
    const local = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
    try {
      const runs = local.store.listRuns().sort((a, b) => a.createdAt - b.createdAt);
      expect(runs.map((run) => [run.profile, run.status, run.code])).toEqual([
        ['writer', 'completed', callCode('memory.read_graph', {})],
        ['writer', 'completed', callCode('board.post', { text: 'hello' })],
      ]);
      const postRun = runs[1]?.id ?? '';
      expect(local.store.listJournal(postRun).map((entry) => [entry.address, entry.outcome?.ok])).toEqual([
        ['board.post', true],
      ]);
      expect(local.store.listDecisions(postRun).map((d) => [d.choice, d.channel])).toEqual([
        ['once', 'client prompt'],
      ]);
    } finally {
      local.close();
    }

    // A tool the profile hides is no tool of this server.
    await expect(hub.callTool({ name: 'board.list_posts', arguments: {} })).rejects.toThrow(/not found/);

    // Another process edits the profile: the server says its list changed, and lists the new one.
    const edited = await runCli(home, ['hub', 'profiles', 'edit', 'writer', '--tools', 'memory.read_graph']);
    expect(edited.status, edited.stderr).toBe(0);
    await vi.waitFor(() => expect(lists.at(-1)).toEqual(['memory.read_graph']), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await hub.listTools()).tools.map((t) => t.name)).toEqual(['memory.read_graph']);
    await expect(hub.callTool({ name: 'board.post', arguments: { text: 'again' } })).rejects.toThrow(
      /not found/,
    );
    expect(board.posts()).toEqual(['post hello']);
  }, 120_000);

  it('a write from a client that cannot be prompted waits for a person, who approves it at the terminal', async () => {
    const board = addSources(home);
    const created = await runCli(home, [
      'hub',
      'profiles',
      'create',
      'poster',
      '--mode',
      'direct',
      '--tools',
      'board.post',
    ]);
    expect(created.status, created.stderr).toBe(0);
    const client = new Client(
      { name: 'no-prompt', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(
      new StdioClientTransport({
        command: BIN,
        args: ['hub', 'serve', '--stdio', '--profile', 'poster'],
        env: env(),
        stderr: 'pipe',
      }),
    );
    closers.push(() => client.close());

    const waiting = await client.callTool({ name: 'board.post', arguments: { text: 'later' } });
    expect(waiting.isError).toBe(true);
    const line = textOf(waiting);
    const runId = /^(run_\w+) awaiting_approval: board\.post needs a person's decision\./.exec(line)?.[1];
    expect(runId, line).toBeDefined();
    expect(line).toContain(`capabilities hub approve ${runId}`);
    expect(line).toContain('do not call the tool again');
    expect(board.posts()).toEqual([]);

    const approved = await runCli(home, ['hub', 'approve', runId ?? '', '--choice', 'once']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(board.posts()).toEqual(['post later']);

    // Deciding again does nothing: the run is complete, the post made once.
    const again = await runCli(home, ['hub', 'approve', runId ?? '', '--choice', 'once']);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain(`run ${runId} is completed and has no call waiting for a decision`);
    expect(board.posts()).toEqual(['post later']);
  }, 120_000);
});
