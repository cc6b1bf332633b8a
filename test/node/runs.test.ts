/**
 * Runs on the local hub, end to end in one process: the real QuickJS sandbox, real MCP servers
 * as sources (server-memory, and a counting board server), policy, the journal, decisions
 * through the person-input module, and resume. The upstream's count file proves no call is
 * ever made twice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionChoice, ExecuteEnvelope } from '../../engine/contracts.ts';
import { HubError } from '../../engine/errors.ts';
import { Hub } from '../../engine/hub.ts';
import { Lookup } from '../../engine/lookup.ts';
import type { Clock } from '../../engine/ports.ts';
import { recordPersonDecision } from '../../engine/runs/person-input.ts';
import { Runs } from '../../engine/runs/runs.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs-sandbox.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { REPO, tempHome } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const BOARD = [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test', 'fixtures', 'servers', 'counting-server.ts'),
];

const sandbox = new QuickJsSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

let dir: string;
let remove: () => void;
let local: LocalStore;
let connector: ReturnType<typeof localConnector>;
let hub: Hub;
let now: number;
const clock: Clock = { now: () => now };
const random = { bytes: (n: number) => crypto.getRandomValues(new Uint8Array(n)) };

beforeAll(() => undefined);
beforeEach(async () => {
  ({ home: dir, remove } = tempHome());
  now = 1_800_000_000_000;
  local = openLocalStore(join(dir, 'hub.db'), now);
  connector = localConnector({ version: 'test' });
  hub = new Hub({
    store: local.store,
    connector,
    secrets: new EnvFileSecretStore(join(dir, '.env')),
    clock,
    random,
  });
  for (const [command, env, namespace] of [
    [[NODE, MEMORY], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }, 'memory'],
    [BOARD, { COUNT_FILE: join(dir, 'count.txt') }, 'board'],
  ] as const) {
    const inspection = await hub.inspect(
      { kind: 'mcp-stdio', command: [...command], env: { ...env }, consented: true },
      namespace,
    );
    hub.addSource(inspection, new Map(inspection.review.map((item) => [item.address, item.proposed])));
  }
});
afterEach(async () => {
  await connector.close();
  local.close();
  remove();
});

function runs(limits: ConstructorParameters<typeof Runs>[0]['limits'] = {}): Runs {
  const lookup = new Lookup(local.store);
  return new Runs({
    store: local.store,
    sandbox,
    clock,
    random,
    upstream: (address, args, options) => hub.callTool(address, args, options),
    lookup: async (request) =>
      request.kind === 'search'
        ? { kind: 'value', value: lookup.search({ query: request.query }) }
        : { kind: 'value', value: lookup.describe(request.targets) },
    limits,
  });
}

const upstreamLines = () =>
  existsSync(join(dir, 'count.txt')) ? readFileSync(join(dir, 'count.txt'), 'utf8').trim().split('\n') : [];

function decide(envelope: ExecuteEnvelope, choice: DecisionChoice): void {
  for (const pending of envelope.pending ?? []) {
    recordPersonDecision(
      { store: local.store, clock, random },
      { pendingId: pending.id, choice, channel: 'cli', who: 'test' },
    );
  }
}

describe('a run that pauses for a person', () => {
  it('J2: the read runs, the post asks once, resume completes it, nothing runs twice', async () => {
    const code = `
      const graph = await memory.read_graph({});
      const posted = await board.post({ text: "entities: " + graph.entities.length });
      return { posted };
    `;
    const first = await runs().execute(code);
    expect(first.error).toBeUndefined();
    expect(first.status).toBe('awaiting_approval');
    expect(first.calls).toEqual([{ address: 'memory.read_graph', ok: true, ms: expect.any(Number) }]);
    expect(first.pending).toEqual([
      {
        id: expect.stringMatching(/^pending_/),
        kind: 'approval',
        address: 'board.post',
        summary: 'Post a message to the board.',
        message: expect.stringContaining(`capabilities hub approve ${first.runId}`),
      },
    ]);
    expect(JSON.stringify(first)).not.toMatch(/https?:\/\/|token/i);

    // Until a person decides, resume returns the same envelope and runs nothing.
    expect(await runs().resume(first.runId)).toEqual(first);
    expect(upstreamLines()).toEqual([]);

    decide(first, 'once');
    const done = await runs().resume(first.runId);
    expect(done).toMatchObject({ status: 'completed', result: { posted: { id: 1, text: 'entities: 0' } } });
    expect(done.calls.map((c) => c.address)).toEqual(['memory.read_graph', 'board.post']);
    expect(upstreamLines()).toEqual(['post entities: 0']);
  });

  it('"allow for this run": a loop of 20 posts asks once', async () => {
    const code =
      'const ids = []; for (let i = 0; i < 20; i++) ids.push((await board.post({ text: "n" + i })).id); return ids.length;';
    const first = await runs().execute(code);
    expect(first.status).toBe('awaiting_approval');
    decide(first, 'run');
    const done = await runs().resume(first.runId);
    expect(done).toMatchObject({ status: 'completed', result: 20 });
    expect(upstreamLines()).toHaveLength(20);
    expect(local.store.listPendingInputs(first.runId)).toHaveLength(1);
  });

  it('"deny": the call fails inside the guest with approval_denied, and the code goes on', async () => {
    const code = `
      try { await board.post({ text: "spam" }); return "posted"; }
      catch (e) { return { name: e.name, code: e.code, address: e.address }; }
    `;
    const first = await runs().execute(code);
    decide(first, 'deny');
    const done = await runs().resume(first.runId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { name: 'ToolError', code: 'approval_denied', address: 'board.post' },
    });
    expect(upstreamLines()).toEqual([]);
  });

  it('"always": a rule pinned to the contract, so the next run does not ask', async () => {
    const first = await runs().execute('return await board.post({ text: "a" })');
    decide(first, 'always');
    expect((await runs().resume(first.runId)).status).toBe('completed');
    const second = await runs().execute('return await board.post({ text: "b" })');
    expect(second).toMatchObject({ status: 'completed', result: { text: 'b' } });
  });

  it('replays deterministically: the same Date and random values on every attempt', async () => {
    const code = `
      const before = { t: Date.now(), r: Math.random(), u: crypto.randomUUID() };
      console.log(JSON.stringify(before));
      await board.post({ text: "x" });
      return before;
    `;
    const first = await runs().execute(code);
    now += 60_000;
    decide(first, 'once');
    const done = await runs().resume(first.runId);
    expect(done.status).toBe('completed');
    expect(done.logs?.[0]).toBe(JSON.stringify(done.result));
  });
});

describe('bad input: a clear error naming the run and its state, with nothing run', () => {
  const code = (error: unknown) =>
    error instanceof HubError ? `${error.code}: ${error.message}` : String(error);
  async function fails(body: () => unknown): Promise<string> {
    try {
      await body();
    } catch (error) {
      return code(error);
    }
    return 'no error';
  }

  it('resume of an unknown or completed run', async () => {
    expect(await fails(() => runs().resume('run_nope'))).toMatch(/^not_found: no run run_nope/);
    const done = await runs().execute('return 1');
    expect(await fails(() => runs().resume(done.runId))).toBe(
      `conflict: run ${done.runId} is completed; there is nothing to resume. Run the code again as a new execute.`,
    );
  });

  it('the same decision twice, and a decision for an expired request', async () => {
    const first = await runs().execute('return await board.post({ text: "late" })');
    decide(first, 'once');
    expect(await fails(() => decide(first, 'deny'))).toMatch(/already decided \(once, by cli\)/);

    const second = await runs().execute('return await board.post({ text: "later" })');
    now += 25 * 60 * 60 * 1000;
    expect(await fails(() => decide(second, 'once'))).toMatch(/expired/);
    expect((await runs().resume(second.runId)).error?.code).toBe('expired');
    expect(upstreamLines()).toEqual([]);
  });

  it('a run that exceeds maxCalls', async () => {
    const done = await runs({ maxCalls: 3 }).execute(
      'let n = 0; try { for (;;) { await board.list_posts({}); n++; } } catch (e) { return { n, code: e.code }; }',
    );
    expect(done).toMatchObject({ status: 'completed', result: { n: 3, code: 'limit' } });
  });

  it('code the pipeline refuses still gets a run id and a clear error', async () => {
    const done = await runs().execute('return (1 +');
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('syntax_error');
  });
});
