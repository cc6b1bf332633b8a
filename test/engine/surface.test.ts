/**
 * The MCP surface with fake deps, through the official v2 client over the surface's own fetch
 * handler (no socket), in both protocol eras: exactly three tools with the spec's wording,
 * schemas and annotations; what each tool hands its dep; execute's envelope and line of text;
 * and every error shape the model can meet.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { HubError } from '../../engine/errors.ts';
import {
  createMcpHttpHandler,
  engineSurfaceDeps,
  INSTRUCTIONS,
  INTERNAL_MESSAGE,
  type SurfaceDeps,
  type SurfaceRuns,
} from '../../engine/surface/index.ts';
import {
  DESCRIBE_DESCRIPTION,
  EXECUTE_DESCRIPTION,
  SEARCH_DESCRIPTION,
} from '../../engine/surface/wording.ts';
import { localWording } from '../../local/wording.ts';

const completed: ExecuteEnvelope = { runId: 'run_1', status: 'completed', result: { n: 2 }, calls: [] };
const asking: ExecuteEnvelope = {
  runId: 'run_2',
  status: 'awaiting_approval',
  calls: [{ address: 'memory.read_graph', ok: true, ms: 3 }],
  pending: [{ id: 'pending_1', kind: 'approval', address: 'board.post', summary: 'Post a message.' }],
};

interface Seen {
  search: unknown[];
  describe: unknown[];
  execute: string[];
  resume: string[];
  logged: unknown[];
}

function fakeDeps(overrides: Partial<SurfaceDeps> = {}): { deps: SurfaceDeps; seen: Seen } {
  const seen: Seen = { search: [], describe: [], execute: [], resume: [], logged: [] };
  const deps: SurfaceDeps = {
    version: '9.9.9',
    wording: localWording,
    search: (input) => {
      seen.search.push(input);
      return 'board.post(input: { text: string }): Promise<unknown>   [asks]';
    },
    describe: (targets) => {
      seen.describe.push(targets);
      return 'declare const board: {};';
    },
    execute: async (code) => {
      seen.execute.push(code);
      return completed;
    },
    resume: async (runId) => {
      seen.resume.push(runId);
      return asking;
    },
    log: (_message, error) => seen.logged.push(error),
    ...overrides,
  };
  return { deps, seen };
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(deps: SurfaceDeps, mode: 'legacy' | 'auto'): Promise<Client> {
  const handler = createMcpHttpHandler(deps);
  const client = new Client({ name: 'surface-test', version: '1.0.0' }, { versionNegotiation: { mode } });
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

describe.each(['legacy', 'auto'] as const)('the surface (%s client)', (mode) => {
  it('offers exactly search, describe and execute, with the spec wording and annotations', async () => {
    const client = await connect(fakeDeps().deps, mode);
    expect(client.getServerVersion()).toMatchObject({ name: 'capabilities', version: '9.9.9' });
    expect(client.getInstructions()).toBe(INSTRUCTIONS);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);
    const [search, describeTool, execute] = tools;
    expect(search?.description).toBe(SEARCH_DESCRIPTION);
    expect(describeTool?.description).toBe(DESCRIBE_DESCRIPTION);
    expect(execute?.description).toBe(EXECUTE_DESCRIPTION);
    expect(search?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(describeTool?.annotations).toEqual({
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(execute?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(search?.inputSchema).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', maxLength: 200 },
        namespace: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 25, default: 8 },
      },
    });
    expect(describeTool?.inputSchema).toMatchObject({
      required: ['targets'],
      properties: { targets: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string' } } },
    });
    expect(execute?.inputSchema).toMatchObject({
      type: 'object',
      properties: { code: { type: 'string', maxLength: 65536 }, resume: { type: 'string' } },
    });
    expect(execute?.inputSchema.required).toBeUndefined();
    expect(execute?.outputSchema).toMatchObject({
      type: 'object',
      required: ['runId', 'status', 'calls'],
      properties: {
        status: {
          enum: ['running', 'completed', 'failed', 'awaiting_approval', 'awaiting_connection', 'cancelled'],
        },
      },
    });
    expect(search?.outputSchema).toBeUndefined();
    expect(JSON.stringify(tools) + INSTRUCTIONS).not.toMatch(/https?:\/\/(?!json-schema\.org)/);
  });

  it('search and describe hand their input to the hub and answer its text', async () => {
    const { deps, seen } = fakeDeps();
    const client = await connect(deps, mode);
    const found = await client.callTool({ name: 'search', arguments: { query: 'post to the board' } });
    expect(found.isError).toBeFalsy();
    expect(textOf(found)).toContain('board.post(input');
    await client.callTool({ name: 'search', arguments: { query: '', namespace: 'board', limit: 3 } });
    expect(seen.search).toEqual([
      { query: 'post to the board', limit: 8 },
      { query: '', namespace: 'board', limit: 3 },
    ]);
    const described = await client.callTool({ name: 'describe', arguments: { targets: ['board'] } });
    expect(textOf(described)).toBe('declare const board: {};');
    expect(seen.describe).toEqual([['board']]);
  });

  it('execute answers the envelope as structured content and one line of text', async () => {
    const { deps, seen } = fakeDeps();
    const client = await connect(deps, mode);
    const done = await client.callTool({ name: 'execute', arguments: { code: 'return { n: 2 }' } });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toEqual(completed);
    expect(done.content).toEqual([{ type: 'text', text: 'run_1 completed: {"n":2}' }]);
    expect(seen.execute).toEqual(['return { n: 2 }']);

    const waiting = await client.callTool({ name: 'execute', arguments: { resume: 'run_2' } });
    expect(seen.resume).toEqual(['run_2']);
    expect(waiting.structuredContent).toEqual(asking);
    expect(textOf(waiting)).toBe(
      'run_2 awaiting_approval: board.post needs a person\'s decision. Tell the user to run `capabilities hub approve run_2`, then call execute({ "resume": "run_2" }).',
    );
    expect(JSON.stringify(waiting)).not.toMatch(/https?:|token/i);
  });

  it('refuses both or neither of code and resume, and bad fields, naming what to send', async () => {
    const { deps, seen } = fakeDeps();
    const client = await connect(deps, mode);
    const both = await client.callTool({ name: 'execute', arguments: { code: 'return 1', resume: 'run_1' } });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain('send exactly one of code (a program to run) or resume');
    expect(textOf(both)).toContain('got both');
    const neither = await client.callTool({ name: 'execute', arguments: {} });
    expect(textOf(neither)).toContain('got neither');
    const limit = await client.callTool({ name: 'search', arguments: { query: 'x', limit: 99 } });
    expect(limit.isError).toBe(true);
    expect(textOf(limit)).toContain('limit: must be a whole number from 1 to 25');
    const targets = await client.callTool({ name: 'describe', arguments: { targets: [] } });
    expect(textOf(targets)).toContain('targets: must be a list of 1 to 10 strings');
    const long = await client.callTool({ name: 'execute', arguments: { code: 'x'.repeat(65_537) } });
    expect(textOf(long)).toContain('code: is over 65,536 bytes');
    expect(seen.execute).toEqual([]);
    expect(seen.resume).toEqual([]);
  });

  it("turns the hub's errors into isError results, and hides what the model should not read", async () => {
    const { deps, seen } = fakeDeps({
      search: () => {
        throw new HubError('invalid_input', 'search: namespace "nope" is not a source.');
      },
      resume: async (runId) => {
        throw new HubError('not_found', `no run ${runId}`);
      },
      describe: () => {
        throw new Error('SQLITE_CORRUPT at /home/someone/.capabilities/hub/hub.db');
      },
    });
    const client = await connect(deps, mode);
    const search = await client.callTool({ name: 'search', arguments: { query: 'x', namespace: 'nope' } });
    expect(search).toMatchObject({ isError: true });
    expect(textOf(search)).toBe('invalid_input: search: namespace "nope" is not a source.');
    const resume = await client.callTool({ name: 'execute', arguments: { resume: 'run_nope' } });
    expect(textOf(resume)).toBe('not_found: no run run_nope');
    const internal = await client.callTool({ name: 'describe', arguments: { targets: ['x'] } });
    expect(internal.isError).toBe(true);
    expect(textOf(internal)).toBe(INTERNAL_MESSAGE);
    expect(String(seen.logged[0])).toContain('SQLITE_CORRUPT');
  });

  it('answers an unknown tool with a protocol error', async () => {
    const client = await connect(fakeDeps().deps, mode);
    await expect(client.callTool({ name: 'approve', arguments: {} })).rejects.toThrow(/approve/);
  });
});

describe('engineSurfaceDeps', () => {
  const lookup = { search: () => '', describe: () => '' };
  const runsWith = (resume: SurfaceRuns['resume'], envelope: ExecuteEnvelope): SurfaceRuns => ({
    execute: async () => envelope,
    resume,
    envelope: () => envelope,
  });

  it('answers how a run ended when the model resumes it after a person already did', async () => {
    const ended = { ...completed, runId: 'run_9' };
    const runs = runsWith(async () => {
      throw new HubError('conflict', 'run run_9 is completed; there is nothing to resume.');
    }, ended);
    const deps = engineSurfaceDeps(
      { wording: localWording, lookup, runs: async () => runs },
      { version: '1' },
    );
    expect(await deps.resume('run_9')).toEqual(ended);
  });

  it('passes any other error on', async () => {
    const runs = runsWith(async () => {
      throw new HubError('not_found', 'no run run_x');
    }, completed);
    const deps = engineSurfaceDeps(
      { wording: localWording, lookup, runs: async () => runs },
      { version: '1' },
    );
    await expect(deps.resume('run_x')).rejects.toThrow('no run run_x');
  });

  it('runs new code under the profile it serves', async () => {
    const profiles: (string | undefined)[] = [];
    const runs: SurfaceRuns = {
      execute: async (_code, profile) => {
        profiles.push(profile);
        return completed;
      },
      resume: async () => completed,
      envelope: () => completed,
    };
    await engineSurfaceDeps(
      { wording: localWording, lookup, runs: async () => runs },
      { version: '1' },
    ).execute('return 1');
    expect(profiles).toEqual(['default']);
  });
});
