/**
 * Shared by test/invariants/hostile-sources.test.ts and hostile-answers.test.ts: a temp hub with one hostile upstream
 * (test/fixtures/servers/hostile-upstream.ts) added through the CLI in a chosen mode, the
 * official MCP client on `hub serve --stdio`, and readers of what the upstream counted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, expect } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { HubStore } from '../../engine/ports.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import { openLocalStore } from '../../local/open-store.ts';
import { BIN, type CliResult, cli, cliEnv, hubHome, REPO } from '../node/cli-process.ts';
import { NODE, stdioClient, textOf } from '../node/surface-fixture.ts';

export const UPSTREAM = [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test', 'fixtures', 'servers', 'hostile-upstream.ts'),
];

export type Mode =
  | 'names'
  | 'inject'
  | 'schema'
  | 'large'
  | 'garbage'
  | 'slow'
  | 'list-changed'
  | 'echo'
  | 'drift';

export interface HostileHub {
  home: string;
  /** What `hub add` said. */
  added: CliResult;
  /** What the upstream counted: `list`, `call <name>`, one a line. */
  counted(): string[];
  /** How many list_changed notifications the upstream has sent (`list-changed` mode). */
  spammed(): number;
  /** The official client on a fresh `hub serve --stdio`, closed by `close`. */
  serve(): Promise<Client>;
  close(): Promise<void>;
}

/**
 * A temp hub with the hostile upstream in `mode` added as `namespace` (`hub add --yes`; null: the
 * hub derives it from the server's name).
 */
export function hostileHub(
  mode: Mode,
  options: { namespace?: string | null; env?: Record<string, string> } = {},
): HostileHub {
  const { home, remove } = hubHome();
  const countFile = join(home, 'count.txt');
  const env = {
    HOSTILE_MODE: mode,
    COUNT_FILE: countFile,
    SPAM_FILE: join(home, 'spam.txt'),
    ...options.env,
  };
  const added = cli(home, [
    ...['hub', 'add', '--yes'],
    ...(options.namespace === null ? [] : ['--namespace', options.namespace ?? 'hostile']),
    ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...['--', ...UPSTREAM],
  ]);
  const clients: Client[] = [];
  return {
    home,
    added,
    counted: () => (existsSync(countFile) ? readFileSync(countFile, 'utf8').trim().split('\n') : []),
    spammed: () => {
      const file = join(home, 'spam.txt');
      return existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
    },
    async serve() {
      const { client } = await stdioClient(home, 'legacy');
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      remove();
    },
  };
}

/** `execute({ code })`: the envelope, and everything the answer said as text. */
export async function execute(
  client: Client,
  code: string,
): Promise<{ envelope: ExecuteEnvelope; said: string }> {
  const answer = await client.callTool({ name: 'execute', arguments: { code } }, { timeout: 120_000 });
  return { envelope: answer.structuredContent as ExecuteEnvelope, said: JSON.stringify(answer) };
}

/** The hub still answers a normal request: search finds the ordinary tool, which runs. */
export async function stillServes(client: Client, namespace = 'hostile'): Promise<void> {
  const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'answer ok' } }));
  expect(found).toContain(`${namespace}.ordinary`);
  const { envelope } = await execute(client, `return await ${namespace}.ordinary({})`);
  expect(envelope).toMatchObject({ status: 'completed', result: 'ok' });
}

/** Lines of `counted` that start with `prefix`. */
export const countOf = (lines: string[], prefix: string) =>
  lines.filter((line) => line.startsWith(prefix)).length;

/** `hub add --yes` of the upstream in `mode` as `namespace` (null: derived) into an existing hub. */
export function addHostile(
  home: string,
  mode: Mode,
  namespace: string | null,
  env: Record<string, string> = {},
): CliResult {
  return cli(home, [
    ...['hub', 'add', '--yes', '--env', `HOSTILE_MODE=${mode}`],
    ...(namespace === null ? [] : ['--namespace', namespace]),
    ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...['--', ...UPSTREAM],
  ]);
}

/** `hub auth <namespace> --env API_TOKEN`, the value typed at the prompt as a person would. */
export function authorize(home: string, namespace: string, value: string): CliResult {
  const auth = spawnSync(BIN, ['hub', 'auth', namespace, '--env', 'API_TOKEN'], {
    env: cliEnv(home),
    input: value,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: auth.status ?? -1, stdout: auth.stdout, stderr: auth.stderr };
}

/** `body` over the hub's own store, opened beside the running processes and closed after. */
export function withStore<T>(home: string, body: (store: HubStore) => T): T {
  const local = openLocalStore(join(home, 'hub', 'hub.db'), Date.now());
  try {
    return body(local.store);
  } finally {
    local.close();
  }
}

/** Resolves once `ready()` holds, checking every 100 ms (an event the upstream writes down). */
export async function until(ready: () => boolean, what: string, limitMs = 120_000): Promise<void> {
  for (let waited = 0; !ready(); waited += 100) {
    if (waited > limitMs) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The credential `echo` is given (`hub auth`), as a person typed it. */
export const TOKEN = 'tk_hostile_9f8e7d6c5b4a3f2e1d0c';

/** Whether `seen` holds `form`, as it is or JSON-escaped (inside a JSON answer). */
export const holds = (seen: string, form: string): boolean =>
  seen.includes(form) || seen.includes(JSON.stringify(form).slice(1, -1));

/**
 * Everything the model and a person see of the `echo` upstream once `token` is its credential:
 * an execute that calls every tool (its halves joined by code, its failures caught), search,
 * describe, and `hub runs show --json` of the run.
 */
export async function seenOfEcho(h: HostileHub, token: string): Promise<string> {
  const auth = authorize(h.home, 'hostile', token);
  expect(auth.status, auth.stderr).toBe(0);
  const client = await h.serve();
  const { envelope, said } = await execute(
    client,
    `const a = await hostile.half({ part: 1 });
     const b = await hostile.half({ part: 2 });
     const failed = [];
     for (const tool of ['fail', 'explode']) {
       try { await hostile[tool]({}); } catch (error) { failed.push(String(error)); }
     }
     return { forms: await hostile.whoami({}), a, b, joined: a + b, failed };`,
  );
  expect(envelope.status, JSON.stringify(envelope.error)).toBe('completed');
  expect(said).toContain(SCRUBBED);
  const search = JSON.stringify(await client.callTool({ name: 'search', arguments: { query: 'token' } }));
  const describe = JSON.stringify(
    await client.callTool({ name: 'describe', arguments: { targets: ['hostile'] } }),
  );
  const shown = cli(h.home, ['--json', 'hub', 'runs', 'show', envelope.runId]);
  return [said, search, describe, shown.stdout, shown.stderr].join('\n');
}

/** How long one hostile attack may take: a hub, an `add`, a `serve`, and a 30 s call timeout. */
export const TIMEOUT = 180_000;

/**
 * A maker of hubs with one hostile upstream, each closed after its test. Call it once, at the top
 * of a test file.
 */
export function hostileHubs(): (...args: Parameters<typeof hostileHub>) => HostileHub {
  const hubs: HostileHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.close()));
  });
  return (...args) => {
    const h = hostileHub(...args);
    hubs.push(h);
    return h;
  };
}

/** The upstream was added (`hub add` exited 0). */
export const added = (h: HostileHub) => expect(h.added.status, h.added.stderr).toBe(0);
