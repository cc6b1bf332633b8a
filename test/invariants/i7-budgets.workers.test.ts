/**
 * I7 (test/invariants/i7-budgets.suite.ts) on the hosted hub in workerd: one person (an MCP token
 * through the real OAuth flow) whose hub holds the counting board of an upstream room
 * (test/workers/upstream.ts), guest code in Worker Loader isolates. workerd run locally caps no
 * isolate memory: the memory attack is a known gap here (see `capsMemory`).
 *
 * Also held by: test/workers/sandbox.test.ts (the sandbox contract, each limit, in Worker Loader
 * isolates), test/workers/mcp.test.ts (what a client gets wrong by the protocol) and
 * test/workers/hub-api.test.ts (the hub API's own body limit).
 */
import { runInDurableObject } from 'cloudflare:test';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { call, mcpClient, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf } from '../workers/people.ts';
import { upstreamRoom } from '../workers/upstream.ts';
import { describeBudgets } from './i7-budgets.suite.ts';

const ID = 170_001;
let client: Client;
let token: string;

beforeAll(async () => {
  const room = upstreamRoom('i7');
  await runInDurableObject(hubOf(`github:${ID}`), async (hub: HubObject) => {
    const inspection = await hub.engine.sources.inspect({ kind: 'mcp-http', url: room.mcpUrl }, 'board');
    hub.engine.sources.addSource(inspection, new Map(inspection.review.map((i) => [i.address, i.proposed])));
  });
  token = (await tokenFor(ID, 'budgets')).access;
  client = await mcpClient(token);
});

describeBudgets({
  name: 'hosted',
  capsMemory: false,
  client: () => client,
  fetch: (path, init) => call(path, init),
  token: () => token,
});
