/**
 * Approvals in the client (engine/surface/approvals.ts) with the official v2 client in-process:
 * over the surface's fetch handler on the 2026-07-28 era (MRTR `input_required`, the client's
 * own elicitation handler answering) and on a 2025 connection that saw `initialize` (the SDK
 * sends real `elicitation/create` requests). The runs are seeded in a real store and decided
 * through the real client prompt; only execute and resume are stand-ins. Every other client gets
 * `awaiting_approval`; a refused state is a -32602 protocol error and records nothing.
 */
import {
  Client,
  type ElicitRequest,
  InMemoryTransport,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { createMcpHttpHandler, createMcpServer, type SurfaceDeps } from '../../engine/surface/index.ts';
import { localWording } from '../../local/wording.ts';
import { type PromptWorld, promptWorld, T0 } from './prompt-fixture.ts';

let world: PromptWorld;
const clients: Client[] = [];
beforeEach(() => {
  world = promptWorld();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  world.close();
});

/** Runs stand-ins over the real store: execute seeds a waiting run; resume completes it once decided. */
function deps(options: { calls?: number; asksAgain?: boolean; prompt?: boolean } = {}): SurfaceDeps {
  let runs = 0;
  const envelope = (runId: string): ExecuteEnvelope => {
    const decided = new Set(world.store.listDecisions(runId).map((d) => d.pendingId));
    const open = world.store.listPendingInputs(runId).filter((p) => !decided.has(p.id));
    if (open.length > 0) {
      return {
        runId,
        status: 'awaiting_approval',
        calls: [],
        pending: open.map((p) => ({ id: p.id, kind: p.kind, address: p.address, summary: p.summary })),
      };
    }
    world.store.updateRun(runId, { status: 'completed', result: decided.size, updatedAt: T0 });
    return { runId, status: 'completed', result: decided.size, calls: [] };
  };
  return {
    version: '1.0.0',
    wording: localWording,
    search: () => '',
    describe: () => '',
    execute: async () => {
      const runId = `run_${++runs}`;
      world.seedRun(runId, options.calls ?? 1);
      return envelope(runId);
    },
    resume: async (runId) => {
      const pendings = world.store.listPendingInputs(runId);
      const decided = world.store.listDecisions(runId);
      if (options.asksAgain && pendings.length === 1 && decided.length === 1) {
        // The resumed code reaches a second write: it asks again.
        world.store.addPendingInput({ ...(pendings[0] ?? never()), id: `${pendings[0]?.id}_again`, seq: 1 });
      }
      return envelope(runId);
    },
    ...(options.prompt === false ? {} : { prompt: world.prompt() }),
  };
}

function never(): never {
  throw new Error('unreachable');
}

type Answer = (request: ElicitRequest) => {
  action: 'accept' | 'decline' | 'cancel';
  content?: { decision: string };
};
const once: Answer = () => ({ action: 'accept', content: { decision: 'once' } });

interface Options {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  answer?: Answer;
  /** Rewrites every requestState the client sends back. */
  tamper?: (state: string) => string;
}

function newClient(mode: 'legacy' | 'auto', options: Options) {
  const asked: ElicitRequest[] = [];
  const client = new Client(
    { name: 'surface-test', version: '2.0.0' },
    {
      versionNegotiation: { mode },
      capabilities: options.elicitation ? { elicitation: options.elicitation } : {},
    },
  );
  if (options.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request);
      return (options.answer ?? once)(request);
    });
  }
  clients.push(client);
  return { client, asked };
}

/** The v2 client over the surface's fetch handler (2026-07-28 with 'auto', stateless 2025 with 'legacy'). */
async function overHttp(surface: SurfaceDeps, mode: 'legacy' | 'auto', options: Options = {}) {
  const handler = createMcpHttpHandler(surface);
  const { client, asked } = newClient(mode, options);
  const fetch = async (url: string | URL, init?: RequestInit) => {
    if (options.tamper && typeof init?.body === 'string' && init.body.includes('"requestState"')) {
      const message = JSON.parse(init.body) as { params: { requestState: string } };
      message.params.requestState = options.tamper(message.params.requestState);
      return handler.fetch(new Request(url, { ...init, body: JSON.stringify(message) }));
    }
    return handler.fetch(new Request(url, init));
  };
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch }));
  return { client, asked };
}

/** The v2 client on a 2025 connection that saw `initialize` (what stdio gives). */
async function overConnection(surface: SurfaceDeps, options: Options = {}) {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(surface).connect(serverSide);
  const { client, asked } = newClient('legacy', options);
  await client.connect(clientSide);
  return { client, asked };
}

const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;
const textOf = (result: { content?: unknown }) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const recorded = (runId: string) =>
  world.store
    .listDecisions(runId)
    .map(({ pendingId, choice, channel, who }) => ({ pendingId, choice, channel, who }))
    .sort((a, b) => a.pendingId.localeCompare(b.pendingId));

describe.each([
  ['a 2026-07-28 client (input_required)', (s: SurfaceDeps, o: Options) => overHttp(s, 'auto', o)],
  ['a 2025 client on a connection (elicitation/create)', overConnection],
])('%s that declared form elicitation', (_, connect) => {
  it('is asked once per pending call; its answers are recorded once and the run completes in the same call', async () => {
    const { client, asked } = await connect(deps({ calls: 2 }), { elicitation: { form: {} } });
    expect(client.getProtocolEra()).toBe(connect === overConnection ? 'legacy' : 'modern');
    const result = await client.callTool({ name: 'execute', arguments: { code: 'two posts' } });
    expect(envelopeOf(result)).toMatchObject({ runId: 'run_1', status: 'completed', result: 2 });
    expect(textOf(result)).toBe('run_1 completed: 2');
    expect(asked).toHaveLength(2);
    expect(asked[0]?.params).toMatchObject({
      mode: 'form',
      message: expect.stringContaining('Allow board.post (connection: none)?'),
      requestedSchema: { properties: { decision: { enum: ['once', 'run', 'always', 'deny'] } } },
    });
    expect(asked[1]?.params.message).toContain('Allow board.post (connection: work)?');
    expect(recorded('run_1')).toEqual([
      { pendingId: 'pending_run_1_0', choice: 'once', channel: 'client prompt', who: 'surface-test 2.0.0' },
      { pendingId: 'pending_run_1_1', choice: 'once', channel: 'client prompt', who: 'surface-test 2.0.0' },
    ]);
  });

  it('asks again, in the same call, when the resumed run reaches another write', async () => {
    const { client, asked } = await connect(deps({ asksAgain: true }), { elicitation: {} });
    const result = await client.callTool({ name: 'execute', arguments: { code: 'post, then post' } });
    expect(envelopeOf(result)).toMatchObject({ status: 'completed', result: 2 });
    expect(asked).toHaveLength(2);
    expect(recorded('run_1').map((d) => d.pendingId)).toEqual(['pending_run_1_0', 'pending_run_1_0_again']);
  });

  it.each(['decline', 'cancel'] as const)(
    'on %s leaves the run waiting, asks no more, and tells the model a person must decide',
    async (action) => {
      const { client, asked } = await connect(deps(), {
        elicitation: { form: {} },
        answer: () => ({ action }),
      });
      const result = await client.callTool({ name: 'execute', arguments: { code: 'post' } });
      expect(envelopeOf(result).status).toBe('awaiting_approval');
      expect(textOf(result)).toBe(
        'run_1 awaiting_approval: board.post needs a person\'s decision. Tell the user to run `capabilities hub approve run_1`, then call execute({ "resume": "run_1" }).',
      );
      expect(asked).toHaveLength(1);
      expect(recorded('run_1')).toEqual([]);
      // Resuming asks the person again.
      const again = await client.callTool({ name: 'execute', arguments: { resume: 'run_1' } });
      expect(asked).toHaveLength(2);
      expect(envelopeOf(again).status).toBe('awaiting_approval');
    },
  );
});

describe('every other client gets awaiting_approval, never a URL or a token', () => {
  it.each([
    ['a 2026-07-28 client without elicitation', () => overHttp(deps(), 'auto')],
    [
      'a 2026-07-28 client with URL elicitation only',
      () => overHttp(deps(), 'auto', { elicitation: { url: {} } }),
    ],
    [
      'a stateless 2025 HTTP client, even with elicitation',
      () => overHttp(deps(), 'legacy', { elicitation: { form: {} } }),
    ],
    ['a 2025 client on a connection without elicitation', () => overConnection(deps())],
    [
      'a capable client of a host that gave no prompt',
      () => overHttp(deps({ prompt: false }), 'auto', { elicitation: { form: {} } }),
    ],
  ])('%s', async (_, connect) => {
    const { client, asked } = await connect();
    const result = await client.callTool({ name: 'execute', arguments: { code: 'post' } });
    expect(envelopeOf(result).status).toBe('awaiting_approval');
    expect(textOf(result)).toContain('Tell the user to run `capabilities hub approve run_1`');
    expect(JSON.stringify(result)).not.toMatch(/https?:\/\/|token|requestState/i);
    expect(asked).toEqual([]);
  });
});

describe('a refused state', () => {
  it.each([
    ['tampered', (state: string) => `${state.slice(0, -3)}AAA`],
    ['forged', () => 'cp1.eyJodWIiOiJodWJfdGVzdCJ9.AAAA'],
  ])('%s: the retry is a -32602 protocol error and nothing is recorded', async (_, tamper) => {
    const { client, asked } = await overHttp(deps(), 'auto', { elicitation: { form: {} }, tamper });
    const failure = await client
      .callTool({ name: 'execute', arguments: { code: 'post' } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid or expired requestState'),
    });
    expect(asked).toHaveLength(1);
    expect(recorded('run_1')).toEqual([]);
    expect(world.store.getRun('run_1')?.status).toBe('awaiting_input');
  });
});
