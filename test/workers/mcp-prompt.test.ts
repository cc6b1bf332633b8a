/**
 * Approvals in the client's prompt through the Worker: a 2026-07-28 client that declared form
 * elicitation gets the form from the HubObject (over RPC), the person's answer comes back with
 * the signed state and is recorded once, and the run goes on in the same call. The board is an
 * HTTP source the test cannot reach, so the person denies: the guest catches approval_denied
 * and nothing goes upstream. A state that was tampered with is refused by the protocol.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { addTestSources } from '../conformance/runs.suite.ts';
import { tokenFor } from './oauth-flow.ts';
import { WORKERS_TEST_TOKEN } from './token.ts';
import { workerTransport } from './worker-client.ts';

const hubs = (env as unknown as HubEnv).HUB;
/** A signed-in person's hub, reached with their MCP client's token (the prompt is a person's). */
const PERSON = 8801;
const hub = hubs.get(hubs.idFromName(`github:${PERSON}`));
let token = '';
beforeAll(async () => {
  token = (await tokenFor(PERSON, 'pat')).access;
});

async function promptingClient(tamper?: (state: string) => string, bearer?: string) {
  const asked: unknown[] = [];
  const client = new Client(
    { name: 'worker-prompt', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { decision: 'deny' } };
  });
  const transport = workerTransport(bearer ?? token);
  if (tamper) {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      const params: Record<string, unknown> | undefined = 'params' in message ? message.params : undefined;
      if (params && typeof params.requestState === 'string')
        params.requestState = tamper(params.requestState);
      return send(message, options);
    };
  }
  await client.connect(transport);
  return { client, asked };
}

const CODE = `
  try { await board.post({ text: "from the worker" }); return "posted"; }
  catch (e) { return e.code; }
`;

describe("approvals in the client's prompt, through the Worker", () => {
  it('asks with a form, records the denial once, and finishes the run in the same call', async () => {
    await runInDurableObject(hub, async (object: HubObject) => {
      if (!object.store.getSource('board')) await addTestSources(object.store);
    });
    const { client, asked } = await promptingClient();
    try {
      const result = await client.callTool({ name: 'execute', arguments: { code: CODE } });
      const envelope = result.structuredContent as ExecuteEnvelope;
      expect(envelope).toMatchObject({ status: 'completed', result: 'approval_denied' });
      expect(asked).toHaveLength(1);
      expect(JSON.stringify(asked[0])).toContain('board.post');
      await runInDurableObject(hub, async (object: HubObject) => {
        const decisions = object.store.listDecisions(envelope.runId);
        expect(decisions.map((d) => [d.choice, d.channel])).toEqual([['deny', 'client prompt']]);
      });
    } finally {
      await client.close();
    }
  });

  it('refuses a tampered state by the protocol and records nothing', async () => {
    const decided = () =>
      runInDurableObject(
        hub,
        (object: HubObject) =>
          object.store.listRuns({ limit: 10_000 }).flatMap((run) => object.store.listDecisions(run.id))
            .length,
      );
    const before = await decided();
    const { client } = await promptingClient((state) => `${state.slice(0, -2)}AA`);
    try {
      const outcome = await client
        .callTool({ name: 'execute', arguments: { code: CODE } })
        .then((r) => JSON.stringify(r))
        .catch((error: unknown) => String(error));
      expect(outcome).toBe('ProtocolError: Invalid or expired requestState');
      expect(outcome).not.toContain('"status":"completed"');
      expect(await decided()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('never asks through the self-hosting token: no person signed in behind it, so the run waits for the dashboard', async () => {
    const selfHosted = hubs.get(hubs.idFromName('default'));
    await runInDurableObject(selfHosted, async (object: HubObject) => {
      if (!object.store.getSource('board')) await addTestSources(object.store);
    });
    const { client, asked } = await promptingClient(undefined, WORKERS_TEST_TOKEN);
    try {
      const result = await client.callTool({ name: 'execute', arguments: { code: CODE } });
      expect((result.structuredContent as ExecuteEnvelope).status).toBe('awaiting_approval');
      expect(asked).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
