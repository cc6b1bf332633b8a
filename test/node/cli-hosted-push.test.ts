/**
 * `capabilities hub push` and `capabilities hub status` as a person runs them: the real CLI as a
 * subprocess, a real local hub in a temporary home (its secret store the .env fallback), and the
 * stand-in hosted hub (test/node/hosted-standin.ts) on 127.0.0.1. The person is signed in through
 * `signedIn` below, the one place that knows how the CLI finds its hosted hub and token.
 *
 * Prompts need a terminal, which a subprocess here does not have: per-secret consent is tested
 * through push.ts in hosted-push.test.ts; here `--yes`, `--json` and `--no-input` decide.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../local/home.ts';
import { HOSTED_PATHS } from '../../local/hosted/hosted-api.ts';
import { writeHostedFile, writeHostedTokens } from '../../local/hosted/hosted-state.ts';
import { openLocalStore } from '../../local/open-store.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { BIN, type CliResult, cli, cliEnv, tempHome } from './cli-process.ts';
import {
  BOARD_KEY,
  BOARD_SECRET,
  fillLocalHub,
  HOSTED_TOKEN,
  type HostedStandin,
  startHostedStandin,
} from './hosted-standin.ts';

const MEM_SECRET = 'mem-secret-value-0c1d';

let home: string;
let remove: () => void;
let hosted: HostedStandin;

beforeEach(async () => {
  ({ home, remove } = tempHome());
  hosted = await startHostedStandin(home);
});
afterEach(async () => {
  await hosted.close();
  remove();
});

/**
 * Signed in to the stand-in as `hub login` leaves a person: hosted.json names the hub and its
 * client, and the secret store (here its .env fallback) holds a token that has not expired.
 */
async function signIn(): Promise<void> {
  const paths = homePaths({ CAPABILITIES_HOME: home });
  writeHostedFile(paths.hostedFile, {
    url: hosted.url,
    client: { client_id: 'cli-hosted-push-test' },
    signedInAt: new Date().toISOString(),
  });
  await writeHostedTokens(new EnvFileSecretStore(paths.envFile), {
    access_token: HOSTED_TOKEN,
    token_type: 'bearer',
    expires_at: Date.now() + 60 * 60 * 1000,
    hub: hosted.url,
  });
}

/** The CLI, run without blocking this process (the stand-in answers from it). */
function run(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(BIN, args, {
      cwd: tmpdir(),
      env: cliEnv(home, env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ status: code ?? -1, stdout, stderr }));
  });
}

/**
 * A local hub with board (HTTP, its value in the secret store), wiki (no value) and mem (stdio),
 * signed in to the stand-in unless `signedIn` is false.
 */
async function localHub({ signedIn = true } = {}): Promise<void> {
  const init = cli(home, ['hub', 'init']);
  expect(init.status, init.stderr).toBe(0);
  const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
  try {
    await fillLocalHub(local.store);
  } finally {
    local.close();
  }
  writeFileSync(
    join(home, '.env'),
    `${BOARD_KEY}=${JSON.stringify(BOARD_SECRET)}\nMEM__DEFAULT__TOKEN="${MEM_SECRET}"\n`,
    {
      mode: 0o600,
    },
  );
  if (signedIn) await signIn();
}

/** No secret value anywhere in what the CLI printed. */
function expectNoSecret(result: CliResult): void {
  for (const value of [BOARD_SECRET, MEM_SECRET, HOSTED_TOKEN]) {
    expect(result.stdout).not.toContain(value);
    expect(result.stderr).not.toContain(value);
  }
}

const applies = () => hosted.requests.filter((r) => r.path === HOSTED_PATHS.apply);

describe('hub push', () => {
  it('--yes shows the plan (the stdio source skipped, with why) and applies it by the hash it returned', async () => {
    await localHub();
    const result = await run(['hub', 'push', '--yes']);
    expect(result.status, result.stderr).toBe(0);
    const hash = /^Applied plan ([0-9a-f]{12}) to (\S+): 2 added, 0 changed, 0 removed, 1 skipped\.$/m.exec(
      result.stdout,
    );
    expect(hash?.[2]).toBe(hosted.url);
    expect(result.stdout).toContain(`Plan ${hash?.[1]} for ${hosted.url}:`);
    expect(result.stdout).toContain('  add     board  https://board.example/mcp');
    expect(result.stdout).toContain('            tool add     board.create_post  (writes)');
    expect(result.stdout).toMatch(
      / {2}skip {4}mem {2}npx -y @modelcontextprotocol\/server-memory\n {12}why: it runs a program/,
    );
    const [apply] = applies();
    const body = apply?.body as { planHash: string; secrets: object } | undefined;
    expect(body?.planHash.slice(0, 12)).toBe(hash?.[1]);
    expect(body?.secrets).toEqual({});
    expect(hosted.store.listSources().map((s) => s.namespace)).toEqual(['board', 'wiki']);
    expectNoSecret(result);

    const again = await run(['hub', 'push', '--yes']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('The hosted hub already matches this hub; nothing to push.');
    expect(applies()).toHaveLength(1);
  });

  it('--json without --yes is a dry run: the plan and its full hash, nothing asked or applied', async () => {
    await localHub();
    const result = await run(['--json', 'hub', 'push', '--secrets']);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual([
      'applied',
      'hash',
      'plan',
      'secretsAbsent',
      'secretsSent',
      'signInsKept',
    ]);
    expect(json).toMatchObject({
      applied: false,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      secretsSent: [],
      signInsKept: [],
    });
    expect((json.plan as { empty: boolean }).empty).toBe(false);
    expect(result.stderr).toContain('A dry run (--json without --yes) sends no secret');
    expect(applies()).toEqual([]);
    expect(hosted.requests.every((r) => JSON.stringify(r.body ?? {}).includes(BOARD_SECRET) === false)).toBe(
      true,
    );
  });

  it('--json --yes --secrets sends the values the local store has (never a stdio source’s) and prints none', async () => {
    await localHub();
    const result = await run(['--json', 'hub', 'push', '--yes', '--secrets']);
    expect(result.status, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as {
      hash: string;
      appliedAt: number;
      plan: { sources: unknown[] };
    };
    expect(json).toMatchObject({
      applied: true,
      appliedAt: 1_800_000_000_000,
      secretsSent: [{ namespace: 'board', connection: 'default', key: BOARD_KEY }],
      secretsAbsent: [{ namespace: 'wiki', connection: 'work', key: 'WIKI__WORK__TOKEN' }],
    });
    expect(result.stderr).toContain(
      `Sending the secret of board/default (header Authorization (Bearer)) to ${hosted.url}.`,
    );
    expect(result.stderr).toMatch(
      /No value for the secret of wiki\/work \(header X-Token\) in the local secret store; it is left out/,
    );
    const [apply] = applies();
    expect(apply?.body).toMatchObject({ secrets: { [BOARD_KEY]: BOARD_SECRET }, planHash: json.hash });
    expect(JSON.stringify(hosted.requests)).not.toContain(MEM_SECRET);
    expect(hosted.secrets.values.get(BOARD_KEY)).toBe(BOARD_SECRET);
    expectNoSecret(result);
  });

  it('--no-input without --yes shows the plan and refuses with what to pass; nothing applied', async () => {
    await localHub();
    const result = await run(['--no-input', 'hub', 'push']);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/^Plan [0-9a-f]{12} for /);
    expect(result.stderr).toContain('pass --yes to apply the plan shown');
    expect(applies()).toEqual([]);
    expectNoSecret(result);
  });

  it('a plan that changed before it was applied: the message says to push again; nothing applied', async () => {
    await localHub();
    hosted.beforeNextApply((store) =>
      store.addSource({
        kind: 'mcp-http',
        namespace: 'other',
        url: 'https://other.example/mcp',
        allowedHosts: ['other.example'],
        addedAt: 5,
        updatedAt: 5,
      }),
    );
    const result = await run(['hub', 'push', '--yes']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^capabilities: the hosted hub at \S+ changed since plan [0-9a-f]{12} was made, so nothing was applied; run `capabilities hub push` again/m,
    );
    expect(hosted.store.listSources().map((s) => s.namespace)).toEqual(['other']);
  });

  it('without a local hub, or not signed in, fails with what to do and creates nothing', async () => {
    const noHub = await run(['hub', 'push', '--yes']);
    expect(noHub.status).toBe(1);
    expect(noHub.stderr).toMatch(/there is no hub at .*create it with `capabilities hub init`/);
    expect(existsSync(join(home, 'hub'))).toBe(false);

    await localHub({ signedIn: false });
    const signedOut = await run(['--json', 'hub', 'push', '--yes']);
    expect(signedOut.status).toBe(1);
    expect(JSON.parse(signedOut.stdout)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(hosted.requests).toEqual([]);
  });
});

describe('hub status', () => {
  it('shows the hosted hub and what differs from the local one; --json as one object', async () => {
    await localHub();
    const before = await run(['hub', 'status']);
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout).toContain(`Signed in to ${hosted.url} as octocat (hub hub_hosted1`);
    expect(before.stdout).toContain('Runs waiting for a person (1):\n  run_waiting1  board.create_post');
    expect(before.stdout).toContain(
      'Local and hosted differ; `capabilities hub push` would:\n  add     board, 2 tool changes',
    );

    const pushed = await run(['hub', 'push', '--yes']);
    expect(pushed.status, pushed.stderr).toBe(0);
    const after = await run(['hub', 'status']);
    expect(after.stdout).toContain('Hosted sources (2):\n  board  https://board.example/mcp  2 tools');
    expect(after.stdout).toMatch(/Last plan applied: [0-9a-f]{12} at 2027-01-15T08:00:00\.000Z\./);
    expect(after.stdout).toContain('Local and hosted match. Stays local (cannot run hosted): mem.');

    const json = await run(['--json', 'hub', 'status']);
    const report = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(['comparison', 'hosted', 'url']);
    expect(report).toMatchObject({
      url: hosted.url,
      hosted: { login: 'octocat', hubId: 'hub_hosted1', lastPlan: { appliedAt: 1_800_000_000_000 } },
      comparison: { match: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    for (const result of [before, after, json]) expectNoSecret(result);
    // Status planned without secrets and applied nothing.
    expect(applies()).toHaveLength(1);
    expect(
      hosted.requests
        .filter((r) => r.path === HOSTED_PATHS.plan)
        .every((r) => JSON.stringify(r.body).includes(BOARD_SECRET) === false),
    ).toBe(true);
  });

  it('without a local hub (so never signed in: hub login keeps its sign-in there), says to sign in and creates nothing', async () => {
    const result = await run(['hub', 'status']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/not signed in to a hosted hub.*hub login/);
    expect(existsSync(join(home, 'hub'))).toBe(false);
  });
});
