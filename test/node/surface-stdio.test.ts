/**
 * The surface over stdio, end to end with real peers: the official v2 MCP client launches
 * `bin/capabilities hub serve --stdio --profile default` on a temp hub whose two real sources
 * (server-memory from npm, the counting board) were added through the CLI. One program reads
 * from one source and writes to the other; the write asks; a person approves at a terminal;
 * the model resumes; the board's count file proves the post reached it exactly once. Then four
 * harness sessions, four processes, share one hub at once.
 */
import { spawn } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { BIN, cli, cliEnv, hubHome } from './cli-process.ts';
import { addSources, approveOnce, type Era, stdioClient, textOf } from './surface-fixture.ts';

let home: string;
let remove: () => void;
const open: Client[] = [];
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  remove();
});

async function connect(era: Era) {
  const session = await stdioClient(home, era);
  open.push(session.client);
  return session;
}

const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;

describe('hub serve --stdio', () => {
  it.each(['auto', 'legacy'] as const)(
    'search → describe → execute across two sources; the write waits for a person, then posts once (%s client)',
    async (era) => {
      const board = addSources(home);
      const { client, stderr } = await connect(era);

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);

      const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'post a message' } }));
      expect(found).toMatch(/board\.post\(input: \{ text: string \}\).*\[asks\]/);
      const described = textOf(
        await client.callTool({
          name: 'describe',
          arguments: { targets: ['board.post', 'memory.read_graph'] },
        }),
      );
      expect(described).toContain('declare const board');
      expect(described).toContain('declare const memory');

      const code = `
        const graph = await memory.read_graph({});
        const posted = await board.post({ text: "entities: " + graph.entities.length });
        return { posted };
      `;
      const asked = await client.callTool({ name: 'execute', arguments: { code } });
      const pending = envelopeOf(asked);
      expect(pending).toMatchObject({
        status: 'awaiting_approval',
        calls: [{ address: 'memory.read_graph', ok: true }],
        pending: [{ kind: 'approval', address: 'board.post', summary: 'Post a message to the board.' }],
      });
      const runId = pending.runId;
      expect(textOf(asked)).toBe(
        `${runId} awaiting_approval: board.post needs a person's decision. Tell the user to run \`capabilities hub approve ${runId}\`, then call execute({ "resume": "${runId}" }).`,
      );
      expect(JSON.stringify(asked)).not.toMatch(/https?:\/\/|token/i);

      // Until a person decides, resume answers the same envelope and runs nothing.
      const early = await client.callTool({ name: 'execute', arguments: { resume: runId } });
      expect(envelopeOf(early)).toEqual(pending);
      expect(board.posts()).toEqual([]);

      const approved = approveOnce(home, runId);
      expect(approved.status, approved.stderr).toBe(0);
      expect(board.posts()).toEqual(['post entities: 0']);

      const done = await client.callTool({ name: 'execute', arguments: { resume: runId } });
      expect(envelopeOf(done)).toMatchObject({
        runId,
        status: 'completed',
        result: { posted: { id: 1, text: 'entities: 0' } },
      });
      expect(textOf(done)).toBe(`${runId} completed: {"posted":{"id":1,"text":"entities: 0"}}`);
      expect(board.posts()).toEqual(['post entities: 0']);
      expect(stderr()).not.toContain('failed inside the hub');
    },
    60_000,
  );

  it('answers bad input with clear errors and keeps serving', async () => {
    addSources(home);
    const { client } = await connect('auto');
    const both = await client.callTool({ name: 'execute', arguments: { code: 'return 1', resume: 'run_1' } });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('send exactly one of code (a program to run) or resume');
    const neither = await client.callTool({ name: 'execute', arguments: {} });
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain('got neither');
    const unknown = await client.callTool({ name: 'execute', arguments: { resume: 'run_0000' } });
    expect(unknown).toMatchObject({ isError: true });
    expect(textOf(unknown)).toBe('not_found: no run run_0000; list runs with `capabilities hub runs`');
    const badSearch = await client.callTool({ name: 'search', arguments: { query: 'x', namespace: 'nope' } });
    expect(badSearch.isError).toBe(true);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/nope/);
    const failed = await client.callTool({
      name: 'execute',
      arguments: { code: 'return board.nothing({})' },
    });
    expect(envelopeOf(failed).status).toBe('failed');
    expect(textOf(failed)).toMatch(/^run_\w+ failed: /);
    // Still serving.
    const read = await client.callTool({
      name: 'execute',
      arguments: { code: 'return await board.list_posts({})' },
    });
    expect(envelopeOf(read)).toMatchObject({ status: 'completed', result: { posts: 0 } });
  }, 60_000);

  it('four sessions, four processes, one hub: each searches and runs code at the same time', async () => {
    addSources(home);
    const eras: Era[] = ['auto', 'auto', 'legacy', 'legacy'];
    const sessions = await Promise.all(eras.map((era) => connect(era)));
    const answers = await Promise.all(
      sessions.map(async ({ client }, i) => {
        const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'list posts' } }));
        const ran = await client.callTool({
          name: 'execute',
          arguments: {
            code: `const g = await memory.read_graph({}); const b = await board.list_posts({}); return { session: ${i}, entities: g.entities.length, posts: b.posts };`,
          },
        });
        return { found, envelope: envelopeOf(ran) };
      }),
    );
    for (const [i, { found, envelope }] of answers.entries()) {
      expect(found).toContain('board.list_posts');
      expect(envelope).toMatchObject({ status: 'completed', result: { session: i, entities: 0, posts: 0 } });
    }
    const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
    try {
      const runs = hub.store.listRuns();
      expect(runs).toHaveLength(4);
      expect(new Set(runs.map((r) => r.id))).toEqual(new Set(answers.map((a) => a.envelope.runId)));
      expect(runs.every((r) => r.status === 'completed')).toBe(true);
    } finally {
      hub.close();
    }
  }, 90_000);

  it('writes only the protocol to stdout, skips a line that is not JSON, and exits when stdin closes', async () => {
    expect(cli(home, ['hub', 'init']).status).toBe(0);
    const child = spawn(BIN, ['hub', 'serve', '--stdio', '--profile', 'default'], {
      env: cliEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdin.write('{not json\n');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'nope/nope' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'execute', arguments: { code: 'return 1' } },
    });
    const lines = () => stdout.split('\n').filter(Boolean);
    for (let i = 0; i < 300 && lines().length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const messages = lines().map((line) => JSON.parse(line) as { jsonrpc: string; id: number });
    expect(messages.map((m) => m.jsonrpc)).toEqual(['2.0', '2.0', '2.0']);
    const byId = new Map(messages.map((m) => [m.id, m as Record<string, unknown>]));
    expect(byId.get(1)).toMatchObject({ result: { serverInfo: { name: 'capabilities' } } });
    expect(byId.get(2)).toMatchObject({ error: { code: -32601 } });
    expect(byId.get(3)).toMatchObject({ result: { structuredContent: { status: 'completed', result: 1 } } });
    // The hub existed: serving says nothing about creating one (it never does).
    expect(stderr).not.toContain('Created the hub');
    child.stdin.end();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  }, 30_000);

  it('takes exactly one of --stdio, --http or --pages, and no port with --stdio', () => {
    expect(cli(home, ['hub', 'serve']).stderr).toContain('pass exactly one of --stdio, --http or --pages');
    expect(cli(home, ['hub', 'serve', '--stdio', '--http']).status).toBe(2);
    const port = cli(home, ['hub', 'serve', '--stdio', '--port', '4790']);
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port goes with --http');
  });
});
