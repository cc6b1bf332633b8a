/**
 * I8 (test/invariants/i8-configuration.suite.ts) on the hosted hub, "The model cannot change
 * configuration", against the Worker's own fetch in workerd. One person
 * holds an MCP agent's token (scope `hub`, through the real OAuth flow) and a hub with a reviewed
 * source; the agent attacks. After each attack the hub's configuration (sources, manifests'
 * tools, connections, policy rules, profiles, skills) is what it was:
 *
 * | Way in           | Attack                                                                   | Held                       |
 * | ---------------- | ------------------------------------------------------------------------ | -------------------------- |
 * | the suite's      | tools and prompts, the Worker Loader guest's globals and `hub`, `hub.*` that configure, `process`, imports (`cloudflare:workers`), `Function`, `fetch` of the hub's own URLs | as the suite says; no answer holds the token |
 * | Management API   | the agent's token on `/mcp/hub/plan` and `/mcp/hub/apply` (a push adding a source) | 403; unchanged  |
 * | Dashboard        | the agent's token on the add-source, review and connection forms         | sign in first; unchanged   |
 *
 * Also held by: test/workers/hub-api.test.ts (the `hub:configure` scope, the HUB_TOKEN),
 * test/workers/mcp.test.ts (the hosted surface), test/workers/sandbox.test.ts (the Worker Loader
 * guest), test/invariants/i5-tenants.workers.test.ts (an MCP token never opens a page).
 */
import { runInDurableObject } from 'cloudflare:test';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { HOSTED_PATHS } from '../../engine/contracts/configuration.ts';
import { call, mcpClient, ORIGIN, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf, reviewedSource } from '../workers/people.ts';
import { describeConfiguration } from './i8-configuration.suite.ts';

let next = 130_000;

/** A person's hub with a reviewed source, and an MCP agent's token for it. */
async function agentOfPerson() {
  next += 1;
  const id = next;
  const person = `github:${id}`;
  await reviewedSource(person, 'board', 'https://board.example/mcp', [
    { name: 'post', description: 'Post a message.', inputSchema: { type: 'object', properties: {} } },
  ]);
  return { person, token: await tokenFor(id, `agent${id}`) };
}

/** Everything of `person`'s hub that is configuration. */
const configuration = (person: string) =>
  runInDurableObject(hubOf(person), async (hub: HubObject) => ({
    sources: hub.store.listSources(),
    tools: hub.store.getManifest('board')?.tools.map((tool) => tool.address),
    connections: hub.store.listConnections(),
    rules: hub.store.listPolicyRules(),
    profiles: hub.store.listProfiles(),
    skills: hub.store.listSkills(),
  }));

/** The person whose hub the suite's agent attacks, its configuration before, and the agent's client. */
let person: string;
let before: Awaited<ReturnType<typeof configuration>>;
let client: Client;
let token: string;

beforeAll(async () => {
  const agent = await agentOfPerson();
  person = agent.person;
  token = agent.token.access;
  before = await configuration(person);
  client = await mcpClient(token);
});

afterAll(async () => {
  await client?.close();
});

describeConfiguration({
  name: 'hosted',
  clients: () => [client],
  unchanged: async (answers) => {
    expect(await configuration(person)).toEqual(before);
    expect(JSON.stringify(answers)).not.toContain(token);
  },
  quotesUndefinedNames: false,
  noSuchMember: /^TypeError: (Cannot read properties of undefined|hub\.approve is not a function)/,
  hostModule: 'cloudflare:workers',
  ownUrls: () => [`${ORIGIN}/mcp`, `${ORIGIN}/hub/plan`, 'http://127.0.0.1:1/mcp'],
});

describe('I8 on the hosted hub: an agent’s MCP token changes no configuration through HTTP', () => {
  it('Management API and dashboard forms: the agent’s token is refused and nothing changes', async () => {
    const { person, token } = await agentOfPerson();
    const before = await configuration(person);
    const authorization = `Bearer ${token.access}`;
    const push = JSON.stringify({
      sources: [{ kind: 'mcp-http', namespace: 'evil', url: 'https://evil.example/mcp' }],
    });
    for (const path of [HOSTED_PATHS.plan, HOSTED_PATHS.apply]) {
      const response = await call(path, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: push,
      });
      expect(response.status, path).toBe(403);
    }
    const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const [path, form] of [
      ['/sources/new', { url: 'https://evil.example/mcp', namespace: 'evil' }],
      ['/sources/board/review', { choice: 'accept', 'effect:board.post': 'allow' }],
      ['/sources/board/connection', { name: 'work', secret: 'x' }],
    ] as const) {
      const response = await call(path, {
        method: 'POST',
        headers: { ...FORM, authorization },
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      expect(response.status, path).toBe(401);
    }
    expect(await configuration(person)).toEqual(before);
  });
});
