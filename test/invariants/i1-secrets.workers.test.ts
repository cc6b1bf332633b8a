/**
 * I1 (test/invariants/i1-secrets.suite.ts) on the hosted hub: the self-hosting hub's own secret
 * (its HUB_TOKEN) against every encoding of test/invariants/i1-kit.ts, through the Worker's /mcp
 * with the official MCP client, in workerd.
 * The guest's code holds the token itself (it cannot get it, but whatever a run says is scrubbed
 * whatever its source); this runner reads each channel as the model does (the MCP answer) and as
 * the hub keeps it (the stored run), and the suite checks each channel × each encoding:
 *
 * | Way in       | Attack                                                    | Held                     |
 * | ------------ | --------------------------------------------------------- | ------------------------ |
 * | MCP execute  | the code returns the token in each encoding               | none in the result       |
 * | MCP execute  | `console.log` of each encoding                            | the run's logs have none |
 * | MCP execute  | an error thrown quoting each encoding                     | the error has none       |
 * | Durable Obj. | the stored runs (result, error, logs) and their journals  | none                     |
 * | MCP execute  | two halves of the raw token, returned apart               | known gap (`it.fails`)   |
 *
 * The local runner, with an upstream that echoes a connection's credential, the pages, the CLI and
 * an OAuth refresh: test/invariants/i1-secrets.test.ts. Also held by (not moved):
 * test/workers/hub-secrets.test.ts (the prompt key), test/workers/hub-push.test.ts (the plan of
 * `push`), test/workers/encrypted-secret-store.test.ts (connection secrets at rest).
 */
import { runInDurableObject } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/client';
import { beforeAll, expect } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { hubEnv } from '../workers/oauth-flow.ts';
import { WORKERS_TEST_TOKEN } from '../workers/token.ts';
import { workerTransport } from '../workers/worker-client.ts';
import { encodings } from './i1-kit.ts';
import { describeSecrets } from './i1-secrets.suite.ts';

const FORMS = encodings(WORKERS_TEST_TOKEN);
const channels = new Map<string, string>();
let split = '';

async function execute(client: Client, code: string): Promise<{ text: string; envelope: ExecuteEnvelope }> {
  const result = await client.callTool({ name: 'execute', arguments: { code } });
  return { text: JSON.stringify(result), envelope: result.structuredContent as ExecuteEnvelope };
}

beforeAll(async () => {
  const client = new Client({ name: 'i1', version: '1.0.0' });
  await client.connect(workerTransport());
  try {
    const returned = await execute(
      client,
      `const forms = ${JSON.stringify(FORMS)};
       for (const form of forms) console.log(form.name, form.value);
       return forms;`,
    );
    expect(returned.envelope.status, returned.text).toBe('completed');
    channels.set('the MCP answer', returned.text);
    channels.set('the run’s logs', JSON.stringify(returned.envelope.logs ?? []));
    const thrown = await execute(
      client,
      `throw new Error("rejected: " + ${JSON.stringify(FORMS.map((form) => form.value).join(' | '))});`,
    );
    expect(thrown.envelope.status, thrown.text).toBe('failed');
    channels.set('a thrown error', thrown.text);
    const middle = Math.floor(WORKERS_TEST_TOKEN.length / 2);
    const parts = [WORKERS_TEST_TOKEN.slice(0, middle), WORKERS_TEST_TOKEN.slice(middle)];
    const halves = await execute(client, `return ${JSON.stringify(parts)};`);
    split = (halves.envelope.result as string[]).join('');
    const ids = [returned, thrown].map((run) => run.envelope.runId);
    // The stored run, less its code: the code is the model's own text, not something the hub hands out.
    channels.set(
      'the stored runs and journals',
      await runInDurableObject(hubEnv.HUB.get(hubEnv.HUB.idFromName('default')), async (hub: HubObject) =>
        JSON.stringify(
          ids.map((id) => {
            const { code: _code, ...run } = hub.store.getRun(id) ?? { code: '', missing: id };
            return { run, journal: hub.store.listJournal(id) };
          }),
        ),
      ),
    );
  } finally {
    await client.close();
  }
});

const CHANNELS: [channel: string, reached: string][] = [
  ['the MCP answer', '[secret]'],
  ['the run’s logs', 'raw [secret]'],
  ['a thrown error', 'rejected: [secret]'],
  ['the stored runs and journals', 'rejected: [secret]'],
];

describeSecrets({
  name: 'hosted',
  secret: WORKERS_TEST_TOKEN,
  channels: CHANNELS,
  read: (channel) => channels.get(channel),
  split: () => split,
});
