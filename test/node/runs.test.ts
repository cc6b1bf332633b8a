/**
 * Runs on the local hub, end to end in one process: the real QuickJS sandbox, real MCP servers
 * as sources (server-memory, and a counting board server), policy, the journal, decisions
 * through the person-input module, and resume. The upstream's count file proves no call is
 * ever made twice. The rest of the run contract (decisions, races, expiry, retention, bad
 * input) runs on both hosts in test/conformance/runs.suite.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordPersonDecision } from '../../engine/approvals/person-input.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { DecisionChoice } from '../../engine/contracts/runs.ts';
import type { Engine } from '../../engine/engine.ts';
import { Lookup } from '../../engine/lookup.ts';
import type { Clock } from '../../engine/ports.ts';
import { Runs } from '../../engine/runs/runs.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';
import { hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const BOARD = [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test', 'fixtures', 'servers', 'counting-server.ts'),
];

const THENABLE = join(REPO, 'test', 'fixtures', 'servers', 'thenable-server.ts');

const sandbox = new QuickJsSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

let dir: string;
let remove: () => void;
let local: LocalStore;
let connector: ReturnType<typeof localConnector>;
let hub: Engine;
let now: number;
const clock: Clock = { now: () => now };
const random = { bytes: (n: number) => crypto.getRandomValues(new Uint8Array(n)) };

beforeAll(() => undefined);
beforeEach(async () => {
  ({ home: dir, remove } = hubHome());
  now = 1_800_000_000_000;
  local = openLocalStore(join(dir, 'hub.db'), now);
  connector = localConnector({ version: 'test' });
  hub = engineWithoutSandbox({
    wording: localWording,
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
    const inspection = await hub.sources.inspect(
      { kind: 'mcp-stdio', command: [...command], env: { ...env }, consented: true },
      namespace,
    );
    hub.sources.addSource(
      inspection,
      new Map(inspection.review.map((item) => [item.address, item.proposed])),
    );
  }
});
afterEach(async () => {
  await connector.close();
  local.close();
  remove();
});

function runs(limits: ConstructorParameters<typeof Runs>[0]['limits'] = {}): Runs {
  const lookup = new Lookup(local.store, localWording);
  return new Runs({
    wording: localWording,
    store: local.store,
    sandbox,
    clock,
    random,
    upstream: (address, args, options) => hub.upstream.callTool(address, args, options),
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

  it('"always": a rule pinned to the contract, so the next run does not ask', async () => {
    const first = await runs().execute('return await board.post({ text: "a" })');
    decide(first, 'always');
    expect((await runs().resume(first.runId)).status).toBe('completed');
    const second = await runs().execute('return await board.post({ text: "b" })');
    expect(second).toMatchObject({ status: 'completed', result: { text: 'b' } });
  });
});

describe('tools named then and toJSON (a namespace is neither a thenable nor serializable)', () => {
  it('awaiting and serializing the namespace call nothing; then_ and toJSON_ are the tools', async () => {
    const inspection = await hub.sources.inspect(
      {
        kind: 'mcp-stdio',
        command: [NODE, '--disable-warning=ExperimentalWarning', THENABLE],
        env: { COUNT_FILE: join(dir, 'thenable.txt') },
        consented: true,
      },
      'hostile',
    );
    expect(inspection.manifest.tools.map((tool) => [tool.name, tool.address])).toEqual([
      ['then', 'hostile.then_'],
      ['toJSON', 'hostile.toJSON_'],
    ]);
    hub.sources.addSource(
      inspection,
      new Map(inspection.review.map((item) => [item.address, item.proposed])),
    );
    const calls = () =>
      existsSync(join(dir, 'thenable.txt'))
        ? readFileSync(join(dir, 'thenable.txt'), 'utf8').trim().split('\n')
        : [];

    const awaited = await runs().execute(`
      const x = await hostile;
      return { same: x === hostile, json: JSON.stringify(hostile), thenType: typeof hostile.then };
    `);
    expect(awaited).toMatchObject({
      status: 'completed',
      result: { same: true, json: '{}', thenType: 'undefined' },
      calls: [],
    });
    expect(calls()).toEqual([]);

    const called = await runs().execute('return [await hostile.then_({}), await hostile.toJSON_({})]');
    expect(called).toMatchObject({ status: 'completed', result: [{ called: 'then' }, { called: 'toJSON' }] });
    expect(calls()).toEqual(['then', 'toJSON']);
  });
});

describe('bad input', () => {
  it('code the pipeline refuses still gets a run id and a clear error', async () => {
    const done = await runs().execute('return (1 +');
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('syntax_error');
  });
});
