/**
 * The hosted hub's profiles and skills over MCP, in workerd: each profile at `/mcp/<name>` in its
 * own mode, showing only what it makes visible (a hidden tool or skill answers exactly as a
 * missing one), its skills as resources and in search; an unknown profile a 404 naming the ones
 * there are. Pushing them there is test/workers/hub-push.test.ts's and the e2e's (j5-push).
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import { skillFromBundle } from '../../engine/skills/skill-bundle.ts';
import { WORKERS_TEST_TOKEN } from './token.ts';
import { worker } from './worker-client.ts';

const hubEnv = env as unknown as HubEnv;
/** The hub the self-hosting token serves (HUB_NAME unset: `default`). */
const hub = () => hubEnv.HUB.get(hubEnv.HUB.idFromName('default'));

const tools: ListedTool[] = [
  {
    name: 'list_posts',
    description: 'List posts.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  { name: 'create_post', description: 'Create a post.', inputSchema: { type: 'object' } },
];
const ledger: ListedTool[] = [
  { name: 'list_accounts', description: 'List bank accounts.', inputSchema: { type: 'object' } },
];
const skillText = '---\nname: release-notes\ndescription: Write release notes for customers.\n---\nSteps.\n';

beforeAll(async () => {
  await runInDurableObject(hub(), async (object: HubObject) => {
    const store = object.store;
    for (const [namespace, list] of [
      ['pboard', tools],
      ['pledger', ledger],
    ] as const) {
      store.addSource({
        kind: 'mcp-http',
        namespace,
        url: `https://${namespace}.example/mcp`,
        allowedHosts: [`${namespace}.example`],
        addedAt: 1,
        updatedAt: 1,
      });
      store.putManifest(await buildManifest({ namespace, fetchedAt: 10, tools: list }));
    }
    const files = [{ path: 'SKILL.md', data: new TextEncoder().encode(skillText) }];
    store.addSkill(await skillFromBundle({ source: '/skills/release-notes', files }, 1), files);
    const at = { createdAt: 1, updatedAt: 1 };
    store.addProfile({ name: 'posts', mode: 'code', namespaces: ['pboard'], ...at });
    store.addProfile({ name: 'plain', mode: 'direct', tools: ['pboard.list_posts'], skills: [], ...at });
  });
});
afterAll(async () => {
  await runInDurableObject(hub(), async (object: HubObject) => {
    for (const namespace of ['pboard', 'pledger']) object.store.removeSource(namespace);
    object.store.removeSkill('release-notes');
    for (const name of ['posts', 'plain']) object.store.removeProfile(name);
  });
});

async function onProfile<T>(path: string, body: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'profiles-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`https://hub.example${path}`), {
      requestInit: { headers: { authorization: `Bearer ${WORKERS_TEST_TOKEN}` } },
      fetch: (input, init) => worker.fetch(new Request(input, init)),
    }),
  );
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('profiles on the hosted hub', () => {
  it('serves a code-mode profile at /mcp/<name>: only its namespaces; a hidden tool answers as a missing one', async () => {
    await onProfile('/mcp/posts', async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search', 'describe', 'execute']);
      const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'list' } }));
      expect(found).toContain('pboard.list_posts');
      expect(found).not.toContain('pledger');
      const hidden = textOf(
        await client.callTool({ name: 'describe', arguments: { targets: ['pledger.list_accounts'] } }),
      );
      const missing = textOf(
        await client.callTool({ name: 'describe', arguments: { targets: ['pnothing.list_accounts'] } }),
      );
      expect(hidden.replaceAll('pledger', 'X')).toBe(missing.replaceAll('pnothing', 'X'));
    });
    // The plain endpoint is `default`'s: everything.
    await onProfile('/mcp', async (client) => {
      const found = textOf(
        await client.callTool({ name: 'search', arguments: { query: 'list bank accounts' } }),
      );
      expect(found).toContain('pledger.list_accounts');
    });
  });

  it('serves a direct-mode profile as its own tools, and its skills only', async () => {
    await onProfile('/mcp/plain', async (client) => {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['pboard.list_posts']);
      expect((await client.listResources()).resources).toEqual([]);
    });
  });

  it("serves the hub's skills as resources and in search, where the profile shows them", async () => {
    await onProfile('/mcp/posts', async (client) => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['skill://release-notes/SKILL.md']);
      const read = await client.readResource({ uri: 'skill://release-notes/SKILL.md' });
      expect((read.contents[0] as { text: string }).text).toBe(skillText);
      const found = textOf(
        await client.callTool({ name: 'search', arguments: { query: 'write release notes' } }),
      );
      expect(found).toContain('release-notes');
    });
  });

  it('answers an unknown profile with a 404 naming the profiles there are', async () => {
    const response = await worker.fetch(
      new Request('https://hub.example/mcp/nope', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${WORKERS_TEST_TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    );
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/no profile "nope"; profiles: default, plain, posts/);
    expect(body.error.message).toContain('Profiles come from a local hub');
  });
});
