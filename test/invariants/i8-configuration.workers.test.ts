/**
 * I8 on the hosted hub, "The model cannot change configuration": the companion of
 * test/invariants/i8-configuration.test.ts in workerd, against the Worker's own fetch. One person
 * holds an MCP agent's token (scope `hub`, through the real OAuth flow) and a hub with a reviewed
 * source; the agent attacks. After each attack the hub's configuration (sources, manifests'
 * tools, connections, policy rules, profiles, skills) is what it was:
 *
 * | Way in           | Attack                                                                   | Held                       |
 * | ---------------- | ------------------------------------------------------------------------ | -------------------------- |
 * | MCP, all tools   | list the tools                                                           | search/describe/execute    |
 * | MCP execute code | every global and `hub` member in the Worker Loader sandbox               | nothing that configures    |
 * | MCP execute code | `hub.sources.add`, `hub.policy.set`, `process.env`, `import('cloudflare:workers')` | refused; unchanged |
 * | Management API   | the agent's token on `/mcp/hub/plan` and `/mcp/hub/apply` (a push adding a source) | 403; unchanged  |
 * | Dashboard        | the agent's token on the add-source, review and connection forms         | sign in first; unchanged   |
 *
 * Also held by: test/workers/hub-api.test.ts (the `hub:configure` scope, the HUB_TOKEN),
 * test/workers/mcp.test.ts (the hosted surface), test/workers/sandbox.test.ts (the Worker Loader
 * guest), test/invariants/i5-tenants.workers.test.ts (an MCP token never opens a page).
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { HOSTED_PATHS } from '../../engine/contracts/configuration.ts';
import { call, envelope, mcpClient, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf, reviewedSource } from '../workers/people.ts';

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

const CONFIGURING =
  /source|connection|polic|profile|skill|config|approve|decide|secret|token|^process$|^require$|^env$/i;

describe('I8 on the hosted hub: an agent’s MCP token changes no configuration', () => {
  it('MCP: three tools; the guest’s globals and `hub` offer nothing that configures; its attempts fail', async () => {
    const { person, token } = await agentOfPerson();
    const before = await configuration(person);
    const client = await mcpClient(token.access);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
      const looked = envelope(
        await client.callTool({
          name: 'execute',
          arguments: {
            code: `const own = (o) => { const n = []; for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) n.push(...Object.getOwnPropertyNames(p)); return n; };
              return { globals: Object.getOwnPropertyNames(globalThis), hub: own(hub) };`,
          },
        }),
      );
      expect(looked).toMatchObject({ status: 'completed' });
      const { globals, hub } = (looked as { result: { globals: string[]; hub: string[] } }).result;
      expect(hub.filter((name) => !['length', 'name', 'prototype'].includes(name)).sort()).toEqual([
        'describe',
        'read',
        'search',
      ]);
      expect(globals.filter((name) => CONFIGURING.test(name))).toEqual([]);
      for (const [code, message] of [
        [
          'return await hub.sources.add({ url: "https://evil.example/mcp" })',
          /^TypeError: Cannot read properties of undefined \(reading 'add'\)/,
        ],
        [
          'return await hub.policy.set("board.post", "allow")',
          /^TypeError: Cannot read properties of undefined \(reading 'set'\)/,
        ],
        ['return process.env', /^ReferenceError: process is not defined/],
        [
          'const m = await import("cloudflare:workers"); return Object.keys(m)',
          /^import is not available in the sandbox/,
        ],
      ] as const) {
        const tried = envelope(await client.callTool({ name: 'execute', arguments: { code } }));
        expect(tried, code).toMatchObject({
          status: 'failed',
          error: { message: expect.stringMatching(message) },
        });
      }
    } finally {
      await client.close();
    }
    expect(await configuration(person)).toEqual(before);
  });

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
