/**
 * A direct tool's answer (engine/surface/direct-tools.ts), over the MCP HTTP handler with fake
 * runs: a completed call answers the run's whole value (asked of `result`, not the envelope's cut
 * to the inline budget) and never an error; structuredContent goes only for an object where the
 * tool declares an output schema; a run that did not complete answers its one line as an error.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { createMcpHttpHandler, type SurfaceDeps, type SurfaceDirect } from '../../engine/surface/index.ts';
import { localWording } from '../../local/wording.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const whole = { items: Array.from({ length: 3 }, (_, id) => ({ id })) };
/** What each tool's one-call run ends as, and the value the run returned whole. */
const runs: Record<string, { envelope: ExecuteEnvelope; value: unknown }> = {
  'api.cut': {
    envelope: {
      runId: 'run_cut',
      status: 'completed',
      calls: [],
      result: '{"items":[{"id"',
      truncated: { result: true },
    },
    value: whole,
  },
  'api.list': {
    envelope: { runId: 'run_list', status: 'completed', calls: [], result: [1, 2] },
    value: [1, 2],
  },
  'api.none': { envelope: { runId: 'run_none', status: 'completed', calls: [] }, value: undefined },
  'api.wait': {
    envelope: {
      runId: 'run_wait',
      status: 'awaiting_approval',
      calls: [],
      pending: [{ id: 'pending_1', kind: 'approval', address: 'api.wait', summary: 'Waits.' }],
    },
    value: undefined,
  },
};
const byRun = new Map(Object.values(runs).map(({ envelope, value }) => [envelope.runId, value]));

const direct: SurfaceDirect = {
  tools: () => [
    { address: 'api.cut', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
    { address: 'api.list', inputSchema: { type: 'object' } },
    { address: 'api.none', inputSchema: { type: 'object' } },
    { address: 'api.wait', inputSchema: { type: 'object' } },
  ],
  call: async (address) => {
    const run = runs[address];
    if (!run) throw new Error(`no ${address}`);
    return run.envelope;
  },
  result: async (runId) => byRun.get(runId),
};

async function connect(): Promise<Client> {
  const deps: SurfaceDeps = {
    version: '9.9.9',
    wording: localWording,
    search: () => '',
    describe: () => '',
    execute: async () => {
      throw new Error('not in direct mode');
    },
    resume: async () => {
      throw new Error('not in direct mode');
    },
    direct,
  };
  const handler = createMcpHttpHandler(deps);
  const client = new Client(
    { name: 'direct-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('a direct tool answers', () => {
  it("the run's whole value, not the envelope's cut, as text and as structuredContent for an object", async () => {
    const client = await connect();
    const cut = await client.callTool({ name: 'api.cut', arguments: {} });
    expect(cut.isError).toBeFalsy();
    expect(JSON.parse(textOf(cut))).toEqual(whole);
    expect(cut.structuredContent).toEqual(whole);
  });

  it('a completed call that returned no object, or nothing, as text and never an error', async () => {
    const client = await connect();
    const list = await client.callTool({ name: 'api.list', arguments: {} });
    expect(list.isError).toBeFalsy();
    expect(textOf(list)).toBe('[1,2]');
    expect(list.structuredContent).toBeUndefined();
    const none = await client.callTool({ name: 'api.none', arguments: {} });
    expect(none.isError).toBeFalsy();
    expect(textOf(none)).toBe('');
  });

  it('a run that did not complete as its one line, an error', async () => {
    const client = await connect();
    const wait = await client.callTool({ name: 'api.wait', arguments: {} });
    expect(wait.isError).toBe(true);
    expect(textOf(wait)).toMatch(/^run_wait awaiting_approval: api\.wait needs a person's decision\./);
    expect(textOf(wait)).toContain('do not call the tool again');
  });
});
