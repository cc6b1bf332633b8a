/**
 * A stand-in hosted hub for `hub push` and `hub status` tests: node:http on 127.0.0.1 answering
 * the management API's three paths (local/hosted/hosted-api.ts) with the engine's own
 * ConfigurationPush over a hub store in a temporary file, behind a fixed bearer token. It records
 * every request (so a test can see which secret values were sent) and can change its hub just
 * before an apply (so the apply meets a real 409). The real Worker is tested end to end elsewhere.
 *
 * Also: a HostedClient over it with the fixed token, built in the test process, and helpers that
 * fill a local hub's store the way `hub add` and `hub auth` would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigurationPush } from '../../engine/configuration/push.ts';
import { CONFIGURATION_FORMAT, type HostedStatus } from '../../engine/contracts/configuration.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { buildManifest } from '../../engine/manifest.ts';
import type { HubStore } from '../../engine/ports.ts';
import { HubSecrets } from '../../engine/secrets/hub-secrets.ts';
import type { PreparedSecretWrite, TransactionalSecretStore } from '../../engine/secrets/secret-store.ts';
import { HOSTED_PATHS, type HostedClient } from '../../local/hosted/hosted-api.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';

export const HOSTED_TOKEN = 'hosted-access-token-5b1e';
/** The value of the board's credential: it must never be printed. */
export const BOARD_SECRET = 'board-secret-value-9d4c2a71';
export const BOARD_KEY = 'BOARD__DEFAULT__AUTHORIZATION';
export const WIKI_KEY = 'WIKI__WORK__TOKEN';

class MemorySecrets implements TransactionalSecretStore {
  readonly where = 'memory';
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
  async prepareSet(key: string, value: string): Promise<PreparedSecretWrite> {
    return () => this.values.set(key, value);
  }
  prepareDelete(key: string): PreparedSecretWrite {
    return () => this.values.delete(key);
  }
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface HostedStandin {
  url: string;
  /** The hosted hub's store (what an apply changed). */
  store: HubStore;
  secrets: MemorySecrets;
  requests: RecordedRequest[];
  /** Runs once, just before the next apply is handled (to change the hub under a plan). */
  beforeNextApply(change: (store: HubStore) => void): void;
  /** A signed-in client of this hub, in the test process. */
  client(): HostedClient;
  close(): Promise<void>;
}

const WAITING: HostedStatus['waiting'] = [
  {
    runId: 'run_waiting1',
    address: 'board.create_post',
    summary: 'Create a post "hello"',
    since: 1_700_000_000_000,
  },
];

export async function startHostedStandin(dir: string): Promise<HostedStandin> {
  const hosted: LocalStore = openLocalStore(join(dir, 'hosted.db'), 0);
  const secrets = new MemorySecrets();
  const clock = { now: () => 1_800_000_000_000 };
  const push = new ConfigurationPush({
    store: hosted.store,
    secrets,
    hubSecrets: new HubSecrets({ store: hosted.store, secrets, clock }),
    clock,
    random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
    cannotRun: (source) =>
      source.kind === 'mcp-stdio'
        ? 'it runs a program on your computer, which the hosted hub cannot do: it stays on your local hub'
        : undefined,
  });
  const requests: RecordedRequest[] = [];
  let pendingChange: ((store: HubStore) => void) | undefined;

  const answer = async (method: string, path: string, body: unknown): Promise<unknown> => {
    if (method === 'GET' && path === HOSTED_PATHS.status) {
      return {
        format: CONFIGURATION_FORMAT,
        hubId: 'hub_hosted1',
        schemaVersion: hosted.store.schemaVersion,
        login: 'octocat',
        waiting: WAITING,
        ...(await push.status()),
      };
    }
    if (method === 'POST' && path === HOSTED_PATHS.plan) return push.plan(body);
    if (method === 'POST' && path === HOSTED_PATHS.apply) {
      const change = pendingChange;
      pendingChange = undefined;
      change?.(hosted.store);
      return push.apply(body);
    }
    throw new HubError('not_found', `no ${method} ${path}`);
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, data: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(data));
      };
      const method = request.method ?? 'GET';
      const path = request.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      requests.push({ method, path, body });
      if (request.headers.authorization !== `Bearer ${HOSTED_TOKEN}`) {
        return send(401, {
          error: { code: 'unauthorized', message: 'sign in again with `capabilities hub login`' },
        });
      }
      answer(method, path, body).then(
        (data) => send(200, data),
        (error: unknown) => {
          const code = isHubError(error) ? error.code : 'internal';
          const status = { conflict: 409, invalid_input: 400, not_found: 404 }[code as string] ?? 500;
          send(status, { error: { code, message: error instanceof Error ? error.message : String(error) } });
        },
      );
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    store: hosted.store,
    secrets,
    requests,
    beforeNextApply: (change) => {
      pendingChange = change;
    },
    client: () => fixedTokenClient(url, HOSTED_TOKEN),
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      hosted.close();
    },
  };
}

/** A HostedClient with a fixed token: errors as HubErrors by status, answers parsed by `schema`. */
export function fixedTokenClient(url: string, token: string): HostedClient {
  const call = async <T>(path: string, schema: z.ZodType<T>, init: RequestInit): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const data = (await response.json()) as { error?: { message: string } };
    if (!response.ok) {
      const code =
        response.status === 409 ? 'conflict' : response.status === 401 ? 'unauthorized' : 'unavailable';
      throw new HubError(code, data.error?.message ?? `status ${response.status}`);
    }
    return schema.parse(data);
  };
  return {
    url,
    get: (path, schema) => call(path, schema, { method: 'GET' }),
    post: (path, body, schema) => call(path, schema, { method: 'POST', body: JSON.stringify(body) }),
  };
}

/**
 * A local hub as `hub add` and `hub auth` leave it: `board`, an HTTP source with two reviewed
 * tools, their rules and a bearer connection; `wiki`, an HTTP source with a connection whose
 * value the local secret store does not hold; and `mem`, a stdio server (with a connection of its
 * own, whose secret must never be offered).
 */
export async function fillLocalHub(store: HubStore): Promise<void> {
  const board = await buildManifest({
    namespace: 'board',
    fetchedAt: 10,
    tools: [
      {
        name: 'list_posts',
        description: 'List posts.',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true },
      },
      { name: 'create_post', description: 'Create a post.', inputSchema: { type: 'object' } },
    ],
  });
  store.atomically(() => {
    store.addSource({
      kind: 'mcp-http',
      namespace: 'board',
      url: 'https://board.example/mcp',
      allowedHosts: ['board.example'],
      addedAt: 1,
      updatedAt: 1,
    });
    store.putManifest(board);
    for (const tool of board.tools) {
      store.putReview({
        address: tool.address,
        namespace: 'board',
        contract: tool.contract,
        tool,
        reviewedAt: 2,
      });
      store.addPolicyRule({
        id: `rule_${tool.name}`,
        target: { kind: 'tool', address: tool.address },
        effect: tool.annotations?.readOnlyHint ? 'allow' : 'ask',
        contract: tool.contract,
        createdAt: 2,
      });
    }
    store.putConnection({
      namespace: 'board',
      name: 'default',
      isDefault: true,
      secrets: [
        { key: BOARD_KEY, delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' }, setAt: 3 },
      ],
      createdAt: 3,
    });
    store.addSource({
      kind: 'mcp-http',
      namespace: 'wiki',
      url: 'https://wiki.example/mcp',
      allowedHosts: ['wiki.example'],
      addedAt: 1,
      updatedAt: 1,
    });
    store.putConnection({
      namespace: 'wiki',
      name: 'work',
      isDefault: true,
      secrets: [{ key: WIKI_KEY, delivery: { kind: 'header', name: 'X-Token', scheme: '' }, setAt: 3 }],
      createdAt: 3,
    });
    store.addSource({
      kind: 'mcp-stdio',
      namespace: 'mem',
      command: ['npx', '-y', '@modelcontextprotocol/server-memory'],
      env: {},
      consent: { command: ['npx', '-y', '@modelcontextprotocol/server-memory'], at: 1 },
      addedAt: 1,
      updatedAt: 1,
    });
    store.putConnection({
      namespace: 'mem',
      name: 'default',
      isDefault: true,
      secrets: [{ key: 'MEM__DEFAULT__TOKEN', delivery: { kind: 'env', variable: 'MEM_TOKEN' }, setAt: 3 }],
      createdAt: 3,
    });
  });
}
