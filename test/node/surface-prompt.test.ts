/**
 * Approvals in the client, end to end with real peers (spec: Approvals over MCP): real clients
 * launch `bin/capabilities hub serve --stdio` on a temp hub whose two real sources were added
 * through the CLI. A 2026-07-28 client (the official v2 SDK) that declared form elicitation is
 * asked in its own prompt through MRTR, its handler answers `once`, and the same `execute` call
 * completes; a 2025-era client (the v1 SDK) gets a real `elicitation/create` and completes the
 * same way; a client without elicitation gets `awaiting_approval`. The board's count file proves
 * each post reached it exactly once, and the store shows each decision recorded once, with its
 * channel. A tampered requestState is a protocol error and decides nothing.
 */
import { Client, type ElicitRequest, type JSONRPCMessage, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema as ElicitRequestSchemaV1 } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { Decision } from '../../engine/contracts/runs.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { BIN, cliEnv, hubHome } from './cli-process.ts';
import { addSources, approveOnce, textOf } from './surface-fixture.ts';

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

const SERVE = { command: BIN, args: ['hub', 'serve', '--stdio', '--profile', 'default'] };
const env = () =>
  Object.fromEntries(
    Object.entries(cliEnv(home)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
const envelopeOf = (result: object) =>
  ('structuredContent' in result ? result.structuredContent : undefined) as ExecuteEnvelope;

type Choice = 'once' | 'decline';

/** The v2 client on the 2026-07-28 era with form elicitation; `choose` stands in for the person. */
async function modernClient(choose: () => Choice, tamper?: (state: string) => string) {
  const asked: ElicitRequest['params'][] = [];
  const client = new Client(
    { name: 'prompt-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return choose() === 'once' ? { action: 'accept', content: { decision: 'once' } } : { action: 'decline' };
  });
  const transport = new StdioClientTransport({ ...SERVE, env: env(), stderr: 'pipe' });
  if (tamper) {
    // An attacker between the client and the hub rewrites the state it echoes back.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      const params: Record<string, unknown> | undefined = 'params' in message ? message.params : undefined;
      if (params && typeof params.requestState === 'string')
        params.requestState = tamper(params.requestState);
      return send(message);
    };
  }
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, asked };
}

/** What the store holds for a run's decisions, and the run's status. */
function storeOf(runId: string): {
  decisions: Pick<Decision, 'choice' | 'channel' | 'who'>[];
  status?: string;
} {
  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  try {
    return {
      decisions: hub.store.listDecisions(runId).map(({ choice, channel, who }) => ({ choice, channel, who })),
      ...(hub.store.getRun(runId) ? { status: hub.store.getRun(runId)?.status } : {}),
    };
  } finally {
    hub.close();
  }
}

const CODE = (text: string) => `
  const graph = await memory.read_graph({});
  const posted = await board.post({ text: "${text} " + graph.entities.length });
  return { posted };
`;

describe('approvals in the client', () => {
  it('a 2026-07-28 client is asked in its own prompt and the same call completes; a declined run is approved at a terminal', async () => {
    const board = addSources(home);
    let choice: Choice = 'once';
    const { client, asked } = await modernClient(() => choice);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'post a message' } }));
    expect(found).toMatch(/board\.post\(input: \{ text: string \}\).*\[asks\]/);
    const described = textOf(
      await client.callTool({
        name: 'describe',
        arguments: { targets: ['board.post', 'memory.read_graph'] },
      }),
    );
    expect(described).toContain('declare const board');

    const done = await client.callTool({ name: 'execute', arguments: { code: CODE('first') } });
    const runId = envelopeOf(done).runId;
    expect(envelopeOf(done)).toMatchObject({
      status: 'completed',
      result: { posted: { id: 1, text: 'first 0' } },
      calls: [
        { address: 'memory.read_graph', ok: true },
        { address: 'board.post', ok: true },
      ],
    });
    expect(textOf(done)).toBe(`${runId} completed: {"posted":{"id":1,"text":"first 0"}}`);
    expect(asked).toEqual([
      {
        mode: 'form',
        message: expect.stringMatching(
          /^Allow board\.post \(connection: none\)\?\nPost a message to the board\.\nArguments: \{\n {2}"text": "first 0"\n\}\nWhy it asks: .+\nRun run_\w+, call 2\. The request expires \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
        ),
        requestedSchema: expect.objectContaining({ required: ['decision'] }),
      },
    ]);
    expect(board.posts()).toEqual(['post first 0']);
    expect(storeOf(runId)).toEqual({
      decisions: [{ choice: 'once', channel: 'client prompt', who: 'prompt-e2e 1.0.0' }],
      status: 'completed',
    });

    // The person declines in the client: the model is told a person must decide.
    choice = 'decline';
    const waiting = await client.callTool({ name: 'execute', arguments: { code: CODE('second') } });
    const second = envelopeOf(waiting).runId;
    expect(envelopeOf(waiting).status).toBe('awaiting_approval');
    expect(textOf(waiting)).toContain(`Tell the user to run \`capabilities hub approve ${second}\``);
    expect(JSON.stringify(waiting)).not.toMatch(/https?:\/\/|token/i);
    expect(board.posts()).toEqual(['post first 0']);

    // …and decides at a terminal instead; the model's resume gets the result, nothing runs twice.
    const approved = approveOnce(home, second);
    expect(approved.status, approved.stderr).toBe(0);
    const resumed = await client.callTool({ name: 'execute', arguments: { resume: second } });
    // (The board numbers posts per process; `approve` ran this one in its own, so the count file counts.)
    expect(envelopeOf(resumed)).toMatchObject({
      status: 'completed',
      result: { posted: { text: 'second 0' } },
    });
    expect(board.posts()).toEqual(['post first 0', 'post second 0']);
    expect(storeOf(second).decisions.map((d) => d.channel)).toEqual(['cli']);
    expect(asked).toHaveLength(2);
  }, 90_000);

  it('a 2025-era client that declared elicitation gets elicitation/create and the same call completes', async () => {
    const board = addSources(home);
    const asked: unknown[] = [];
    const client = new ClientV1(
      { name: 'legacy-e2e', version: '0.9.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchemaV1, async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { decision: 'once' } };
    });
    await client.connect(new StdioTransportV1({ ...SERVE, env: env(), stderr: 'pipe' }));
    closers.push(() => client.close());

    const done = await client.callTool({ name: 'execute', arguments: { code: CODE('legacy') } });
    const envelope = envelopeOf(done);
    expect(envelope.status, JSON.stringify(envelope.error)).toBe('completed');
    expect(envelope).toMatchObject({ status: 'completed', result: { posted: { id: 1, text: 'legacy 0' } } });
    expect(asked).toEqual([
      expect.objectContaining({ message: expect.stringContaining('Allow board.post') }),
    ]);
    expect(board.posts()).toEqual(['post legacy 0']);
    expect(storeOf(envelope.runId).decisions).toEqual([
      { choice: 'once', channel: 'client prompt', who: 'legacy-e2e 0.9.0' },
    ]);
  }, 60_000);

  it('a client without elicitation gets awaiting_approval and the approve command', async () => {
    const board = addSources(home);
    const client = new Client(
      { name: 'plain-e2e', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StdioClientTransport({ ...SERVE, env: env(), stderr: 'pipe' }));
    closers.push(() => client.close());
    const waiting = await client.callTool({ name: 'execute', arguments: { code: CODE('plain') } });
    const { runId, status, error } = envelopeOf(waiting);
    expect(status, JSON.stringify(error)).toBe('awaiting_approval');
    expect(textOf(waiting)).toBe(
      `${runId} awaiting_approval: board.post needs a person's decision. Tell the user to run \`capabilities hub approve ${runId}\`, then call execute({ "resume": "${runId}" }).`,
    );
    expect(board.posts()).toEqual([]);
    expect(storeOf(runId).decisions).toEqual([]);
  }, 60_000);

  it('a tampered requestState is refused with -32602 and decides nothing', async () => {
    const board = addSources(home);
    const flip = (state: string) => `${state.slice(0, 8)}${state[8] === 'x' ? 'y' : 'x'}${state.slice(9)}`;
    const { client, asked } = await modernClient(() => 'once', flip);
    const failure = await client
      .callTool({ name: 'execute', arguments: { code: CODE('forged') } })
      .catch((error: unknown) => error);
    expect(failure, JSON.stringify(failure)).toBeInstanceOf(ProtocolError);
    expect(failure).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid or expired requestState'),
    });
    expect(asked).toHaveLength(1);
    expect(board.posts()).toEqual([]);
    const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
    try {
      const [run] = hub.store.listRuns();
      expect(run?.status).toBe('awaiting_input');
      expect(hub.store.listDecisions(run?.id ?? '')).toEqual([]);
    } finally {
      hub.close();
    }
    // The hub keeps serving: a read still runs.
    const read = await client.callTool({
      name: 'execute',
      arguments: { code: 'return await board.list_posts({})' },
    });
    expect(envelopeOf(read)).toMatchObject({ status: 'completed', result: { posts: 0 } });
  }, 60_000);
});
