/**
 * Journey J5 end to end ("Go hosted: `hub login` and `hub push`, then add the hosted /mcp as a
 * connector"), with nothing standing in but GitHub: a local hub made the way a person makes one
 * (`hub init --import --yes` of a Claude Code config holding a Streamable HTTP server that needs a
 * bearer credential, and a stdio server), the real Worker under `wrangler dev`, Debian's Chromium
 * as the person, the real CLI for `hub login`, `hub push --secrets --yes`, `hub status` and
 * `hub logout`, and the official MCP SDK client with OAuth as the agent on the hosted `/mcp`.
 *
 * The agent's `execute` reaches the upstream with the credential the push carried, the answer
 * comes back with it scrubbed, and the credential's plaintext is nowhere in the hosted hub's
 * storage, its output or the run's page. A second identical push is an empty plan. The stdio
 * server is skipped with its reason. A profile and a skill made locally (`hub profiles create`,
 * `hub skills add`) go with the push: the agent on the profile's own endpoint `/mcp/<name>` sees
 * only that profile's tools, and finds the skill with search and reads it as a resource. A rule
 * change and the source's removal on the hosted dashboard, in Chromium, hold on the agent's next call.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { readHostedTokens } from '../../local/hosted/hosted-state.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type RunningBoard, startBoardServer } from '../fixtures/board-http-server.ts';
import { type RunningGithubStandIn, startGithubStandIn } from '../fixtures/github-standin-server.ts';
import { BIN, REPO } from '../node/cli-process.ts';
import { type RunningWorker, startWranglerDev } from '../node/wrangler-dev.ts';
import { launchBrowser } from './browser.ts';
import {
  LoopbackOAuthProvider,
  type LoopbackRedirect,
  startLoopbackRedirect,
} from './loopback-oauth-client.ts';

const GITHUB = { clientId: 'Iv1.j5-push', clientSecret: 'j5-push-secret-0123456789abcdef0123' };
const ANA = { id: 515151, login: 'ana', name: 'Ana' };
/** The upstream's credential: in the person's Claude Code config, then their secret store, then the hosted hub's. */
const TOKEN = 'lin_api_J5pushedCredential0123456789abcdef';
const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

let github: RunningGithubStandIn;
let board: RunningBoard;
let worker: RunningWorker;
let browser: Browser;
let ana: BrowserContext;
let redirect: LoopbackRedirect;
let home: string;
let env: NodeJS.ProcessEnv;
/** Where `$BROWSER` writes each URL the CLI asks it to open. */
let opened: string;
let appliedHash = '';
/** The agent's OAuth client, signed in once and used on `/mcp` and on the profile's endpoint. */
let provider: LoopbackOAuthProvider;
const SKILL_TEXT =
  '---\nname: board-digest\ndescription: Summarise the board posts for the weekly digest.\n---\nList the posts, then summarise them.\n';

/**
 * The CLI as a person runs it, without blocking this process: the board it lists and calls
 * answers from here.
 */
function run(args: readonly string[], extra: NodeJS.ProcessEnv = {}) {
  const child = spawn(BIN, args, { cwd: home, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  return finished(child).done;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'capabilities-j5-'));
  opened = join(home, 'opened.txt');
  const browserScript = join(home, 'browser.sh');
  writeFileSync(browserScript, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(opened)}\n`);
  chmodSync(browserScript, 0o755);
  const { CAPABILITIES_HOME: _h, DBUS_SESSION_BUS_ADDRESS: _d, XDG_CONFIG_HOME: _x, ...rest } = process.env;
  env = { ...rest, HOME: home, BROWSER: browserScript, CAPABILITIES_OPEN_PAGES: '0' };

  github = await startGithubStandIn({ ...GITHUB, users: [ANA] });
  board = await startBoardServer({ bearer: TOKEN });
  redirect = await startLoopbackRedirect();
  browser = await launchBrowser();
  ana = await browser.newContext();
  worker = await startWranglerDev({
    GITHUB_CLIENT_ID: GITHUB.clientId,
    GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_API_URL: github.url,
    ALLOW_PRIVATE_UPSTREAMS: '1',
    SECRETS_KEY: 'j5-secrets-key-0123456789abcdef0123456789',
  });
  writeFileSync(
    join(home, '.claude.json'),
    `${JSON.stringify(
      {
        mcpServers: {
          board: { type: 'http', url: board.url, headers: { Authorization: `Bearer ${TOKEN}` } },
          memory: {
            type: 'stdio',
            command: NODE,
            args: [MEMORY],
            env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
          },
        },
      },
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await redirect?.close();
  await board?.close();
  await github?.close();
  if (home) rmSync(home, { recursive: true, force: true });
}, 60_000);

/** Waits for the CLI to hand `$BROWSER` a URL, and returns the newest; `said` is what the CLI printed, for a failure. */
async function nextOpened(count: number, said: () => string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const lines = existsSync(opened) ? readFileSync(opened, 'utf8').trim().split('\n').filter(Boolean) : [];
    if (lines.length >= count) return lines[count - 1] ?? '';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the CLI never asked the browser to open a page; it said: ${said()}`);
}

function finished(child: ChildProcess): {
  done: Promise<{ status: number; stdout: string; stderr: string }>;
  said: () => string;
} {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return {
    done: new Promise((resolve) =>
      child.once('exit', (code) => resolve({ status: code ?? -1, stdout, stderr })),
    ),
    said: () => stdout + stderr,
  };
}

describe('J5: a local hub goes hosted', { timeout: 120_000 }, () => {
  it('the local hub is made from the Claude Code config, the credential in its secret store', async () => {
    const init = await run(['hub', 'init', '--import', '--yes']);
    expect(init.status, init.stderr + init.stdout).toBe(0);
    const list = await run(['hub', 'list']);
    expect(list.stdout).toMatch(/^board {2}mcp-http .*\n {4}3 tools/m);
    expect(readFileSync(join(home, '.capabilities', '.env'), 'utf8')).toContain(TOKEN);
  });

  it('a profile and a skill are made locally, as a person makes them', async () => {
    const folder = join(home, 'board-digest');
    mkdirSync(folder);
    writeFileSync(join(folder, 'SKILL.md'), SKILL_TEXT);
    const skill = await run(['hub', 'skills', 'add', folder, '--yes']);
    expect(skill.status, skill.stderr + skill.stdout).toBe(0);
    const profile = await run(['hub', 'profiles', 'create', 'reads', '--tools', 'board.list_posts']);
    expect(profile.status, profile.stderr + profile.stdout).toBe(0);
  });

  it('hub login: the browser signs in at GitHub and allows the CLI, which keeps its tokens in the secret store', async () => {
    const child = spawn(BIN, ['hub', 'login', '--url', worker.url], {
      cwd: home,
      // Pages open for this command: the person's browser is the test's $BROWSER.
      env: { ...env, CAPABILITIES_OPEN_PAGES: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { done, said } = finished(child);
    const url = new URL(await nextOpened(1, said));
    expect(url.origin + url.pathname).toBe(`${worker.url}/authorize`);
    expect(url.searchParams.get('scope')?.split(' ')).toContain('hub:configure');
    const page = await ana.newPage();
    await page.goto(url.href);
    await page.getByRole('button', { name: `Authorize ${ANA.login}` }).click();
    await page.waitForURL((at) => at.origin === worker.url && at.pathname === '/authorize');
    const consent = (await page.textContent('body')) ?? '';
    expect(consent).toMatch(/change your hub's configuration/);
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.hostname === '127.0.0.1' && at.origin !== worker.url);
    await page.close();
    const login = await done;
    expect(login.status, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${worker.url} as ${ANA.login}`);
    const hosted = readFileSync(join(home, '.capabilities', 'hub', 'hosted.json'), 'utf8');
    expect(hosted).toContain(worker.url);
    const kept = await readHostedTokens(new EnvFileSecretStore(join(home, '.capabilities', '.env')));
    expect(kept?.refresh_token).toBeTruthy();
    expect(hosted).not.toContain(kept?.access_token);
    expect(hosted).not.toContain(kept?.refresh_token);
  });

  it('hub push --secrets --yes: the plan adds the board with its credential and skips the stdio server', async () => {
    const push = await run(['hub', 'push', '--secrets', '--yes']);
    expect(push.status, push.stderr + push.stdout).toBe(0);
    expect(push.stdout + push.stderr).not.toContain(TOKEN);
    expect(push.stdout).toMatch(/add {5}board/);
    expect(push.stdout).toMatch(/board\.whoami/);
    expect(push.stdout).toMatch(/memory[\s\S]*skip/i);
    expect(push.stdout, push.stdout).toMatch(
      /add {5}profile reads \(code mode; every namespace; tools board\.list_posts; every skill\)/,
    );
    expect(push.stdout, push.stdout).toMatch(
      /add {5}skill board-digest \(1 file, \d+ bytes\): Summarise the board posts/,
    );
    const applied = /Applied plan ([0-9a-f]{8,})/.exec(push.stdout);
    expect(applied, push.stdout).not.toBeNull();
    appliedHash = applied?.[1] ?? '';

    const again = await run(['hub', 'push', '--secrets', '--yes', '--json']);
    expect(again.status, again.stderr).toBe(0);
    const answer = JSON.parse(again.stdout) as { plan: { empty: boolean }; applied: boolean };
    expect(answer.plan.empty).toBe(true);
    expect(answer.applied).toBe(false);
  });

  it('an agent signed in over OAuth runs execute on the hosted hub: the credential reaches the upstream and comes back scrubbed', async () => {
    const started = performance.now();
    const step = (what: string) =>
      console.log(`J5 agent: ${what} at ${Math.round(performance.now() - started)} ms`);
    provider = new LoopbackOAuthProvider(redirect.url, 'J5 Agent');
    const transport = () =>
      new StreamableHTTPClientTransport(new URL('/mcp', worker.url), { authProvider: provider });
    const first = new Client({ name: 'j5-agent', version: '1.0.0' });
    const firstTransport = transport();
    await expect(first.connect(firstTransport)).rejects.toBeInstanceOf(UnauthorizedError);
    step('asked to authorize');
    const page = await ana.newPage();
    await page.goto(provider.authorizationUrl?.href ?? '');
    step(`consent page at ${new URL(page.url()).pathname}`);
    const landed = redirect.next();
    // An agent asks for the hub, never to change its configuration.
    expect(await page.textContent('body')).not.toMatch(/change your hub's configuration/);
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    try {
      await page.waitForURL((at) => at.href.startsWith(redirect.url), { timeout: 30_000 });
    } catch (error) {
      throw new Error(
        `Allow did not lead back to the agent: at ${page.url()}: ${await page.textContent('body')}`,
        {
          cause: error,
        },
      );
    }
    const back = await landed;
    step('back at the redirect');
    await page.close();
    await firstTransport.finishAuth(back.searchParams);
    const agent = new Client({ name: 'j5-agent', version: '1.0.0' });
    await agent.connect(transport());
    step('connected');

    const before = board.authorizations.length;
    const result = await agent.callTool({
      name: 'execute',
      arguments: {
        code: 'const who = await board.whoami({}); const list = await board.list_posts({}); return { who, list };',
      },
    });
    step('executed');
    const envelope = result.structuredContent as ExecuteEnvelope;
    expect(envelope.status, JSON.stringify(envelope)).toBe('completed');
    expect(board.authorizations.slice(before)).toContain(`Bearer ${TOKEN}`);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(envelope.result)).toContain('Bearer');
    await agent.close();
    step('closed');

    // Nowhere in the hosted hub's storage, its output, or the run's page.
    for (const file of filesUnder(worker.stateDir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(TOKEN), file).toBe(false);
      expect(bytes.includes(Buffer.from(TOKEN).toString('base64')), file).toBe(false);
    }
    expect(worker.output()).not.toContain(TOKEN);
    step('state searched');
    const runPage = await ana.newPage();
    await runPage.goto(`${worker.url}/runs/${envelope.runId}`);
    expect(await runPage.content()).not.toContain(TOKEN);
    await runPage.close();
  });

  it("the agent on the profile's endpoint sees only its tools, and finds and reads the pushed skill", async () => {
    const agent = new Client({ name: 'j5-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL('/mcp/reads', worker.url), { authProvider: provider }),
    );
    const text = (result: { content?: unknown }) =>
      ((result.content ?? []) as { text?: string }[]).map((c) => c.text ?? '').join('\n');
    const found = text(await agent.callTool({ name: 'search', arguments: { query: 'board posts whoami' } }));
    expect(found).toContain('board.list_posts');
    expect(found).not.toContain('board.whoami');
    const hidden = text(await agent.callTool({ name: 'describe', arguments: { targets: ['board.whoami'] } }));
    const missing = text(
      await agent.callTool({ name: 'describe', arguments: { targets: ['board.nothing_here'] } }),
    );
    expect(hidden.replaceAll('whoami', 'X')).toBe(missing.replaceAll('nothing_here', 'X'));
    const skill = text(
      await agent.callTool({ name: 'search', arguments: { query: 'weekly digest of the board' } }),
    );
    expect(skill).toContain('board-digest');
    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['skill://board-digest/SKILL.md']);
    // Through the Skills extension's host side, which checks the file against the entry's digest.
    const skills = new SkillsClient(agent);
    const { skills: entries } = await skills.list();
    expect(entries.map((entry) => entry.uri)).toEqual(['skill://board-digest/SKILL.md']);
    const read = await skills.read(entries[0] as (typeof entries)[number]);
    expect(read).toMatchObject({ verified: true, text: SKILL_TEXT });
    await agent.close();
  });

  it('hub status says who is signed in where, the hosted sources, the last plan, and that local and hosted match', async () => {
    const status = await run(['hub', 'status']);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain(worker.url);
    expect(status.stdout).toContain(ANA.login);
    expect(status.stdout).toMatch(/board/);
    expect(status.stdout).toContain(appliedHash.slice(0, 12));
    expect(status.stdout).toMatch(/match/i);
  });

  it('a rule change and a removal from the hosted dashboard, in Chromium, take effect on the next call', async () => {
    const agent = new Client({ name: 'j5-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', worker.url), { authProvider: provider }),
    );
    // The whole envelope, as the model reads it.
    const list = async () =>
      JSON.stringify(
        (await agent.callTool({ name: 'execute', arguments: { code: 'return await board.list_posts({})' } }))
          .structuredContent,
      );
    expect(await list()).toContain('"status":"completed"');
    expect(await list()).not.toContain('denied');

    const page = await ana.newPage();
    await page.goto(`${worker.url}/sources/board`);
    await page.getByLabel('Rule for board.list_posts').selectOption('deny');
    await page
      .locator('section', { has: page.getByRole('heading', { name: 'board.list_posts' }) })
      .getByRole('button', { name: 'Set the rule' })
      .click();
    await page.waitForURL(`${worker.url}/sources/board`);
    expect(await page.textContent('body')).toContain('board.list_posts: rule set to deny');
    expect(await list()).toMatch(/denied/);

    await page.getByRole('link', { name: 'Remove board…' }).click();
    await page.getByRole('button', { name: 'Remove board' }).click();
    await page.waitForURL(`${worker.url}/sources`);
    await page.close();
    expect(await list()).toMatch(/board'? is not defined/);
    await agent.close();
  });

  it('hub logout revokes and forgets the sign-in; then push says to sign in', async () => {
    const logout = await run(['hub', 'logout']);
    expect(logout.status, logout.stderr).toBe(0);
    expect(readFileSync(join(home, '.capabilities', '.env'), 'utf8')).not.toMatch(/HOSTED/);
    const push = await run(['hub', 'push', '--yes']);
    expect(push.status).not.toBe(0);
    expect(push.stderr).toMatch(/hub login/);
  });
});
