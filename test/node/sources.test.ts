/**
 * Sources end to end with real, unmodified MCP servers from npm: server-memory and
 * server-filesystem over stdio, server-everything over Streamable HTTP on a loopback port.
 * Plus test servers for what real ones don't do on demand: a tool that changes upstream (J4),
 * a server that echoes its credential in every encoding, garbage, silence.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyEffect } from '../../engine/contracts/policy.ts';
import type { Engine } from '../../engine/engine.ts';
import type { SourceDraft } from '../../engine/sources/sources.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';
import { hubErrorOf } from '../hub-error.ts';
import { freePort, hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const pkg = (name: string) => join(REPO, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
const fixture = (name: string) => [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test', 'fixtures', 'servers', name),
];
const stdio = (command: string[], env: Record<string, string> = {}): SourceDraft => ({
  kind: 'mcp-stdio',
  command,
  env,
  consented: true,
});

let dir: string;
let remove: () => void;
let local: LocalStore;
const connectors: ReturnType<typeof localConnector>[] = [];

beforeEach(() => {
  ({ home: dir, remove } = hubHome());
  local = openLocalStore(join(dir, 'hub.db'), Date.now());
});
afterEach(async () => {
  await Promise.all(connectors.splice(0).map((c) => c.close()));
  local.close();
  remove();
});

/** The engine as one CLI command builds it: a fresh connector each time, the same store and secrets. */
function hub(options: { connectTimeoutMs?: number } = {}): Engine {
  const connector = localConnector({
    version: 'test',
    connectTimeoutMs: options.connectTimeoutMs ?? 20_000,
  });
  connectors.push(connector);
  return engineWithoutSandbox({
    wording: localWording,
    store: local.store,
    connector,
    secrets: new EnvFileSecretStore(join(dir, '.env')),
    clock: { now: () => Date.now() },
    random: { bytes: (length) => crypto.getRandomValues(new Uint8Array(length)) },
  });
}

async function add(draft: SourceDraft, namespace?: string): Promise<string> {
  const h = hub();
  const inspection = await h.sources.inspect(draft, namespace);
  h.sources.addSource(inspection, new Map(inspection.review.map((item) => [item.address, item.proposed])));
  return inspection.source.namespace;
}

describe('stdio sources (real servers from npm)', () => {
  it('server-memory: add proposes "memory", reviews by annotation, calls and refreshes', async () => {
    const h = hub();
    const inspection = await h.sources.inspect(
      stdio([NODE, pkg('server-memory')], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    );
    expect(inspection.source.namespace).toBe('memory');
    expect(inspection.manifest.tools).toHaveLength(9);
    const classes = Object.fromEntries(
      inspection.review.map((item) => [item.address, [item.class, item.proposed]]),
    );
    expect(classes['memory.read_graph']).toEqual(['read-only', 'allow']);
    expect(classes['memory.create_entities']).toEqual(['writes', 'ask']);
    expect(classes['memory.delete_entities']?.[1]).toBe('ask');
    h.sources.addSource(inspection, new Map(inspection.review.map((item) => [item.address, item.proposed])));

    const rules = local.store.listPolicyRules();
    expect(rules).toHaveLength(9);
    for (const rule of rules) expect(rule.contract).toMatch(/^[0-9a-f]{64}$/);
    expect(h.sources.pendingReview('memory')).toEqual([]);

    const created = await hub().upstream.callTool('memory.create_entities', {
      entities: [{ name: 'Alice', entityType: 'person', observations: ['prefers email'] }],
    });
    expect(created.ok).toBe(true);
    const graph = await hub().upstream.callTool('memory.read_graph', {});
    expect(graph).toMatchObject({ ok: true, value: { entities: [{ name: 'Alice', entityType: 'person' }] } });
    expect(await hub().sources.refresh('memory')).toEqual({
      added: [],
      removed: [],
      changed: [],
      notices: [],
    });
  });

  it('server-filesystem: lists and reads inside its allowed directory only', async () => {
    const root = join(dir, 'files');
    mkdirSync(root);
    writeFileSync(join(root, 'hello.txt'), 'hello from the hub');
    const namespace = await add(stdio([NODE, pkg('server-filesystem'), root]));
    expect(namespace).toBe('filesystem');
    const read = await hub().upstream.callTool('filesystem.read_text_file', {
      path: join(root, 'hello.txt'),
    });
    expect(JSON.stringify(read)).toContain('hello from the hub');
    const outside = await hub().upstream.callTool('filesystem.read_text_file', { path: '/etc/hostname' });
    expect(outside.ok).toBe(false);
  });

  it('a tool that changes upstream is reported by refresh and waits for review (J4)', async () => {
    const file = join(dir, 'description.txt');
    writeFileSync(file, 'Post a note.');
    const namespace = await add(stdio(fixture('changing-server.ts'), { DESCRIPTION_FILE: file }), 'notes');
    expect(hub().sources.pendingReview(namespace)).toEqual([]);

    writeFileSync(file, 'Post a note, and delete every other note.');
    const diff = await hub().sources.refresh(namespace);
    expect(diff).toEqual({
      added: [],
      removed: [],
      changed: [{ address: 'notes.post_note', parts: ['description'] }],
      notices: [],
    });
    const pending = hub().sources.pendingReview(namespace);
    expect(pending.map((item) => item.address)).toEqual(['notes.post_note']);
    const approved = local.store.getReview('notes.post_note');
    expect(approved?.tool.description).toBe('Post a note.');
    const pinned = local.store
      .listPolicyRules()
      .find((r) => r.target.kind === 'tool' && r.target.address === 'notes.post_note');
    expect(pinned?.contract).not.toBe(
      local.store.getManifest('notes')?.tools.find((t) => t.name === 'post_note')?.contract,
    );

    hub().sources.acceptReview(namespace, new Map<string, PolicyEffect>([['notes.post_note', 'ask']]));
    expect(hub().sources.pendingReview(namespace)).toEqual([]);
    expect(
      local.store
        .listPolicyRules()
        .filter((r) => r.target.kind === 'tool' && r.target.address === 'notes.post_note'),
    ).toHaveLength(1);
  });

  it('honours notifications/tools/list_changed: the manifest is refreshed and the tool waits for review', async () => {
    const file = join(dir, 'description.txt');
    writeFileSync(file, 'Post a note.');
    const namespace = await add(stdio(fixture('changing-server.ts'), { DESCRIPTION_FILE: file }), 'notes');
    const live = hub();
    const refreshed = new Promise<unknown>((resolve) =>
      live.sources.followToolChanges((_ns, result) => resolve(result)),
    );
    await live.upstream.callTool('notes.rewrite', { description: 'Post a note to everyone.' });
    expect(await refreshed).toEqual({
      added: [],
      removed: [],
      changed: [{ address: 'notes.post_note', parts: ['description'] }],
      notices: [],
    });
    expect(local.store.getManifest(namespace)?.tools.find((t) => t.name === 'post_note')?.description).toBe(
      'Post a note to everyone.',
    );
    expect(live.sources.pendingReview(namespace).map((item) => item.address)).toEqual(['notes.post_note']);
  });

  it('scrubs the credential from every result, in every encoding, and from errors', async () => {
    const namespace = await add(stdio(fixture('echo-secret-server.ts')), 'echo');
    const secret = 'sk-live_4f9a/+q=Zz';
    await hub().sources.saveCredential(namespace, 'work', { kind: 'env', variable: 'API_TOKEN' }, secret);
    const result = await hub().upstream.callTool('echo.whoami', {});
    expect(result).toEqual({
      ok: true,
      value: {
        raw: '[secret]',
        base64: '[secret]',
        base64url: '[secret]',
        url: '[secret]',
        hex: '[secret]',
        header: 'Authorization: Bearer [secret]',
      },
      ms: expect.any(Number),
    });
    const failed = await hub().upstream.callTool('echo.fail_loudly', {});
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'upstream_error', message: 'invalid token [secret] ([secret])' },
    });
    expect(JSON.stringify(local.store.listConnections('echo'))).not.toContain(secret);
  });

  it('a stdio source never runs without consent to its exact command', async () => {
    const error = await hubErrorOf(() =>
      hub().sources.inspect({ kind: 'mcp-stdio', command: [NODE, pkg('server-memory')], consented: false }),
    );
    expect(error.code).toBe('denied');
    expect(error.message).toContain('not consented');
  });
});

describe('an HTTP source (server-everything over Streamable HTTP)', () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(NODE, [pkg('server-everything'), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    server.stderr?.on('data', (chunk) => {
      log += chunk;
    });
    for (let i = 0; i < 100 && !log.includes('listening'); i++) await new Promise((r) => setTimeout(r, 100));
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(async () => {
    server.kill();
    await once(server, 'exit');
  });

  it('adds, calls and refreshes over Streamable HTTP, reaching only its own host', async () => {
    const namespace = await add({ kind: 'mcp-http', url });
    expect(namespace).toMatch(/^everything/);
    expect(local.store.getSource(namespace)).toMatchObject({
      kind: 'mcp-http',
      allowedHosts: [new URL(url).host],
    });
    const echoed = await hub().upstream.callTool(`${namespace}.echo`, { message: 'hello over http' });
    expect(JSON.stringify(echoed)).toContain('hello over http');
    const sum = await hub().upstream.callTool(`${namespace}.getSum`, { a: 2, b: 3 });
    expect(JSON.stringify(sum)).toContain('5');
    expect((await hub().sources.refresh(namespace)).changed).toEqual([]);
  });
});

describe('bad input ends with a clear message and stores nothing', () => {
  const cases: [string, () => SourceDraft, RegExp][] = [
    [
      'a command that is not found',
      () => stdio(['capabilities-no-such-command']),
      /was not found: capabilities-no-such-command/,
    ],
    [
      'a command that exits at once',
      () => stdio([NODE, '-e', 'console.error("boom: bad config"); process.exit(3)']),
      /exited before it answered[\s\S]*boom: bad config/,
    ],
    [
      'a server that answers garbage to tools/list',
      () => stdio(fixture('garbage-server.ts')),
      /not an MCP tool list/,
    ],
    [
      'an unreachable URL',
      () => ({ kind: 'mcp-http', url: 'http://127.0.0.1:9/mcp' }),
      /could not reach http:\/\/127\.0\.0\.1:9\/mcp/,
    ],
    ['a URL that is not a URL', () => ({ kind: 'mcp-http', url: 'not a url' }), /is not a URL/],
  ];
  for (const [name, draft, message] of cases) {
    it(name, async () => {
      const error = await hubErrorOf(() => hub().sources.inspect(draft()));
      // What a person is shown: the message and, after it, the detail (the command line or URL).
      expect([error.message, error.detail].join('\n')).toMatch(message);
      expect(local.store.listSources()).toEqual([]);
    });
  }

  it('a server that hangs', async () => {
    const error = await hubErrorOf(() =>
      hub({ connectTimeoutMs: 1_000 }).sources.inspect(stdio(fixture('silent-server.ts'))),
    );
    expect(error.message).toMatch(/did not answer in time/);
    expect(local.store.listSources()).toEqual([]);
  });

  it('a duplicate namespace, and a namespace that is not a JavaScript identifier', async () => {
    await add(stdio([NODE, pkg('server-memory')], { MEMORY_FILE_PATH: join(dir, 'm.jsonl') }), 'memory');
    expect(
      (await hubErrorOf(() => hub().sources.inspect(stdio([NODE, pkg('server-memory')]), 'memory'))).code,
    ).toBe('conflict');
    const h = hub();
    const inspection = await h.sources.inspect(stdio([NODE, pkg('server-memory')]), 'Not-An-Identifier');
    expect(() => h.sources.addSource(inspection, new Map())).toThrow(/namespace is lowercase letters/);
    expect(local.store.listSources().map((s) => s.namespace)).toEqual(['memory']);
  });
});
