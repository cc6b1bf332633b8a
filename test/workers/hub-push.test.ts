/**
 * `hub push` through the Worker in workerd, as the CLI sends it: a person's token with
 * `hub:configure` plans and applies a configuration onto their own HubObject, whose secret values
 * land encrypted and whose status then shows it; a hash from before a concurrent change is
 * refused (409); a second identical push is an empty plan; a stdio source and a source at a
 * private address are skipped with their reasons; one person's push never touches another's hub.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import {
  CONFIGURATION_FORMAT,
  HOSTED_PATHS,
  type HostedStatus,
  type HubConfiguration,
  type PlanAnswer,
} from '../../engine/contracts/configuration.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import { CLI_REDIRECT, call, tokenFor } from './oauth-flow.ts';
import { hubOf } from './people.ts';

const TOKEN = 'board-token-7f3a9c2e1d5b8a40';
const KEY = 'BOARD__DEFAULT__AUTHORIZATION';

const tools: ListedTool[] = [
  {
    name: 'list_posts',
    description: 'List posts.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_post',
    description: 'Create a post.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
];

/** A reviewed HTTP source at `url` with a bearer connection and a rule per tool, as a local hub pushes it. */
async function httpSource(namespace: string, url: string): Promise<HubConfiguration['sources'][number]> {
  const manifest = await buildManifest({ namespace, fetchedAt: 10, tools });
  return {
    source: {
      kind: 'mcp-http',
      namespace,
      url,
      allowedHosts: [new URL(url).host],
      addedAt: 1,
      updatedAt: 1,
    },
    manifest,
    reviews: manifest.tools.map((tool) => ({
      address: tool.address,
      namespace,
      contract: tool.contract,
      tool,
      reviewedAt: 2,
    })),
    connections: [
      {
        namespace,
        name: 'default',
        isDefault: true,
        secrets: [
          {
            key: `${namespace.toUpperCase()}__DEFAULT__AUTHORIZATION`,
            delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
            setAt: 3,
          },
        ],
        createdAt: 3,
      },
    ],
    policies: manifest.tools.map((tool) => ({
      id: `rule_${namespace}_${tool.name}`,
      target: { kind: 'tool' as const, address: tool.address },
      effect: tool.annotations?.readOnlyHint ? ('allow' as const) : ('ask' as const),
      contract: tool.contract,
      createdAt: 2,
    })),
  };
}

const stdioSource: HubConfiguration['sources'][number] = {
  source: {
    kind: 'mcp-stdio',
    namespace: 'mem',
    command: ['npx', '-y', '@modelcontextprotocol/server-memory'],
    env: {},
    consent: { command: ['npx', '-y', '@modelcontextprotocol/server-memory'], at: 1 },
    addedAt: 1,
    updatedAt: 1,
  },
  reviews: [],
  connections: [],
  policies: [],
};

/** The local hub of the tests: the board over HTTPS and a stdio server. */
async function localConfiguration(): Promise<HubConfiguration> {
  return {
    format: CONFIGURATION_FORMAT,
    sources: [await httpSource('board', 'https://board.example/mcp'), stdioSource],
    profiles: [],
    skills: [],
  };
}

/** A POST to the management API with `token`: its status and JSON. */
async function post<T>(path: string, token: string, body: unknown): Promise<{ status: number; json: T }> {
  const response = await call(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function status(token: string): Promise<HostedStatus> {
  const response = await call(HOSTED_PATHS.status, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as HostedStatus;
}

interface ApiError {
  error: { code: string; message: string; hint?: string };
}

const CONFIGURE = 'hub hub:configure';

describe('hub push through the Worker', () => {
  it('plans, applies the hash shown, keeps the secret encrypted, and a second identical push is empty', async () => {
    const { access } = await tokenFor(8001, 'lea', CONFIGURE, CLI_REDIRECT);
    const request = { configuration: await localConfiguration(), secrets: { [KEY]: TOKEN } };

    const planned = await post<PlanAnswer>(HOSTED_PATHS.plan, access, request);
    expect(planned.status).toBe(200);
    const { plan, hash } = planned.json;
    expect(plan.sources.find((s) => s.namespace === 'board')).toMatchObject({ change: 'add' });
    const mem = plan.sources.find((s) => s.namespace === 'mem');
    expect(mem).toMatchObject({ change: 'skip', kind: 'mcp-stdio' });
    expect(mem?.reason).toContain('runs a program on your computer, which the hosted hub cannot do');
    expect(JSON.stringify(planned.json)).not.toContain(TOKEN);

    const applied = await post<PlanAnswer>(HOSTED_PATHS.apply, access, { ...request, planHash: hash });
    expect(applied.status).toBe(200);
    expect(applied.json.hash).toBe(hash);
    expect(applied.json.appliedAt).toEqual(expect.any(Number));

    await runInDurableObject(hubOf('github:8001'), async (hub: HubObject, state) => {
      expect(hub.store.listSources().map((s) => s.namespace)).toEqual(['board']);
      expect(hub.store.getManifest('board')?.tools).toHaveLength(2);
      const raw = JSON.stringify([...(await state.storage.list()).entries()]);
      expect(raw).not.toContain(TOKEN);
      expect(raw).toContain(`secret:${KEY}`);
      expect(hub.engine.secrets.scrubber.text(`token ${TOKEN}`)).not.toContain(TOKEN);
    });

    const shown = await status(access);
    expect(shown.sources.map((s) => s.namespace)).toEqual(['board']);
    expect(shown.lastPlan?.hash).toBe(hash);
    expect(JSON.stringify(shown)).not.toContain(TOKEN);

    const again = await post<PlanAnswer>(HOSTED_PATHS.plan, access, request);
    expect(again.status).toBe(200);
    expect(again.json.plan.empty).toBe(true);
    expect(again.json.plan.sources.map((s) => s.change)).toEqual(['keep', 'skip']);
  });

  it('refuses (409) a hash from before a concurrent change, and applies nothing', async () => {
    const { access } = await tokenFor(8101, 'max', CONFIGURE, CLI_REDIRECT);
    const request = { configuration: await localConfiguration(), secrets: {} };
    const planned = await post<PlanAnswer>(HOSTED_PATHS.plan, access, request);
    expect(planned.status).toBe(200);

    // Meanwhile another push (another terminal of the same person) adds a source.
    const other = {
      configuration: {
        format: CONFIGURATION_FORMAT,
        sources: [await httpSource('notes', 'https://notes.example/mcp')],
        profiles: [],
        skills: [],
      },
      secrets: {},
    };
    const otherPlan = await post<PlanAnswer>(HOSTED_PATHS.plan, access, other);
    expect(
      (await post<PlanAnswer>(HOSTED_PATHS.apply, access, { ...other, planHash: otherPlan.json.hash }))
        .status,
    ).toBe(200);

    const stale = await post<ApiError>(HOSTED_PATHS.apply, access, {
      ...request,
      planHash: planned.json.hash,
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('conflict');
    expect(stale.json.error.message.length).toBeGreaterThan(0);
    await runInDurableObject(hubOf('github:8101'), async (hub: HubObject) => {
      expect(hub.store.listSources().map((s) => s.namespace)).toEqual(['notes']);
    });
  });

  it('skips an HTTP source at a private address, saying why', async () => {
    const { access } = await tokenFor(8201, 'ned', CONFIGURE, CLI_REDIRECT);
    const request = {
      configuration: {
        format: CONFIGURATION_FORMAT,
        sources: [await httpSource('lan', 'http://192.168.1.20:8080/mcp')],
        profiles: [],
        skills: [],
      },
      secrets: {},
    };
    const planned = await post<PlanAnswer>(HOSTED_PATHS.plan, access, request);
    expect(planned.status).toBe(200);
    const lan = planned.json.plan.sources.find((s) => s.namespace === 'lan');
    expect(lan).toMatchObject({ change: 'skip' });
    expect(lan?.reason).toContain('private address');
    expect(lan?.reason).toContain('stays on your local hub');
  });

  it('refuses a push of another configuration format (409) and a malformed one (400), with what to do', async () => {
    const { access } = await tokenFor(8301, 'ola', CONFIGURE, CLI_REDIRECT);
    const newer = await post<ApiError>(HOSTED_PATHS.plan, access, {
      configuration: { format: CONFIGURATION_FORMAT + 1, sources: [] },
    });
    expect(newer.status).toBe(409);
    expect(newer.json.error.message).toContain(String(CONFIGURATION_FORMAT + 1));
    const malformed = await post<ApiError>(HOSTED_PATHS.plan, access, { configuration: { sources: 'all' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('invalid_input');
  });

  it('a push by one person never touches another person’s hub', async () => {
    const a = await tokenFor(8401, 'pia', CONFIGURE, CLI_REDIRECT);
    const b = await tokenFor(8402, 'quin', CONFIGURE, CLI_REDIRECT);
    const requestA = { configuration: await localConfiguration(), secrets: { [KEY]: TOKEN } };
    const planA = await post<PlanAnswer>(HOSTED_PATHS.plan, a.access, requestA);
    await post<PlanAnswer>(HOSTED_PATHS.apply, a.access, { ...requestA, planHash: planA.json.hash });

    // B pushes an empty configuration: in B's hub it removes nothing, for there is nothing of A's there.
    const requestB = {
      configuration: { format: CONFIGURATION_FORMAT, sources: [], profiles: [], skills: [] },
      secrets: {},
    };
    const planB = await post<PlanAnswer>(HOSTED_PATHS.plan, b.access, requestB);
    expect(planB.json.plan.sources).toEqual([]);
    expect(planB.json.plan.empty).toBe(true);
    expect(
      (await post<PlanAnswer>(HOSTED_PATHS.apply, b.access, { ...requestB, planHash: planB.json.hash }))
        .status,
    ).toBe(200);
    // B's hash is no key to A's hub either.
    const crossed = await post<ApiError>(HOSTED_PATHS.apply, b.access, {
      ...requestA,
      planHash: planA.json.hash,
    });
    expect(crossed.status).toBe(409);

    expect((await status(a.access)).sources.map((s) => s.namespace)).toEqual(['board']);
    expect((await status(b.access)).sources).toEqual([]);
    await runInDurableObject(hubOf('github:8401'), async (hub: HubObject) => {
      expect(hub.store.listSources().map((s) => s.namespace)).toEqual(['board']);
      expect(hub.engine.secrets.scrubber.text(TOKEN)).not.toContain(TOKEN);
    });
    await runInDurableObject(hubOf('github:8402'), async (hub: HubObject, state) => {
      expect(hub.store.listSources()).toEqual([]);
      const raw = JSON.stringify([...(await state.storage.list()).entries()]);
      expect(raw).not.toContain(`secret:${KEY}`);
    });
  });
});
