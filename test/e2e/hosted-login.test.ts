/**
 * `capabilities hub login` and `hub logout` end to end against the real Worker under `wrangler
 * dev`, with nothing standing in but GitHub (test/fixtures/github-standin-server.ts): the CLI runs
 * as a process with BROWSER set to a script that writes down the address it is given; Chromium
 * (the person) opens it, signs in at the stand-in GitHub and allows "capabilities CLI" on the
 * consent page; the CLI redeems the code and says who signed in. Its tokens are in the secret
 * store's fallback file, never in hosted.json. An access token made to look expired is refreshed
 * through the SDK on the next call; `hub logout` revokes the grant (its refresh token no longer
 * works at /token) and forgets everything.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { homePaths } from '../../local/home.ts';
import { HOSTED_PATHS } from '../../local/hosted/hosted-api.ts';
import { openHostedClient } from '../../local/hosted/hosted-client.ts';
import { HOSTED_TOKENS_KEY, type HostedTokens, readHostedTokens } from '../../local/hosted/hosted-state.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type RunningGithubStandIn, startGithubStandIn } from '../fixtures/github-standin-server.ts';
import { BIN, type CliResult, cli, cliEnv, hubHome, runCli } from '../node/cli-process.ts';
import { type RunningWorker, startWranglerDev } from '../node/wrangler-dev.ts';
import { launchBrowser } from './browser.ts';

const GITHUB = { clientId: 'Iv1.login-e2e', clientSecret: 'login-e2e-secret-0123456789abcdef' };
const ANA = { id: 515151, login: 'ana', name: 'Ana' };

let github: RunningGithubStandIn;
let hub: RunningWorker;
let browser: Browser;
/** Ana's browser: signed in to the hub at the first login, still signed in at the second. */
let ana: BrowserContext;
let made: { home: string; remove(): void };
/** The file the BROWSER script writes the address it was given to. */
let opened: string;
let browserScript: string;

beforeAll(async () => {
  browser = await launchBrowser();
  ana = await browser.newContext();
  github = await startGithubStandIn({ ...GITHUB, users: [ANA] });
  hub = await startWranglerDev({
    GITHUB_CLIENT_ID: GITHUB.clientId,
    GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_API_URL: github.url,
  });
  made = hubHome();
  expect(cli(made.home, ['hub', 'init']).status).toBe(0);
  opened = join(made.home, 'opened-url');
  browserScript = join(made.home, 'browser.sh');
  writeFileSync(browserScript, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(browserScript, 0o700);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
  await github?.close();
  made?.remove();
}, 60_000);

const paths = () => homePaths({ CAPABILITIES_HOME: made.home });
const keptTokens = async (): Promise<HostedTokens | undefined> =>
  readHostedTokens(new EnvFileSecretStore(paths().envFile));

/** Resolves with what the BROWSER script wrote, once it has. */
async function openedUrl(login: Promise<unknown>): Promise<string> {
  let done = false;
  void login.finally(() => {
    done = true;
  });
  while (!existsSync(opened) || readFileSync(opened, 'utf8') === '') {
    if (done) throw new Error('hub login ended before it opened a browser');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return readFileSync(opened, 'utf8');
}

/** `hub login` with no browser to open: it prints the address; `address()` resolves with it. */
function loginPrinting(url: string) {
  const child = spawn(BIN, ['hub', 'login', '--url', url], {
    cwd: tmpdir(),
    env: cliEnv(made.home, { CAPABILITIES_OPEN_PAGES: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let printed: ((address: string) => void) | undefined;
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    const match = /^Open this address in a browser to sign in: (\S+)$/m.exec(stderr);
    if (match?.[1]) printed?.(match[1]);
  });
  const done = new Promise<CliResult>((resolve) =>
    child.once('close', (code) => resolve({ status: code ?? -1, stdout, stderr })),
  );
  const address = new Promise<string>((resolve, reject) => {
    printed = resolve;
    void done.then((run) => reject(new Error(`hub login ended without printing the address: ${run.stderr}`)));
  });
  return { address, done };
}

/** A form POST to the Worker's token endpoint. */
const tokenRequest = (form: Record<string, string>) =>
  fetch(`${hub.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

/** tools/list at the Worker's /mcp with `token`: its HTTP status. */
const mcpStatus = async (token: string) => {
  const answer = await fetch(`${hub.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await answer.body?.cancel();
  return answer.status;
};

describe('hub login and logout against the hosted hub under wrangler dev', { timeout: 120_000 }, () => {
  let first: HostedTokens;
  let refreshed: HostedTokens;

  it('signs in through the browser: GitHub sign-in, consent, and the CLI says who signed in', async () => {
    const login = runCli(made.home, ['hub', 'login', '--url', hub.url], {
      BROWSER: browserScript,
      CAPABILITIES_OPEN_PAGES: '1',
    });
    const url = new URL(await openedUrl(login));
    expect(url.origin + url.pathname).toBe(`${hub.url}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('hub hub:configure');
    const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.pathname).toBe('/callback');

    const page = await ana.newPage();
    await page.goto(url.href);
    expect(new URL(page.url()).origin).toBe(github.url);
    await page.getByRole('button', { name: `Authorize ${ANA.login}` }).click();
    await page.waitForURL((at) => at.origin === hub.url && at.pathname === '/authorize');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Allow capabilities CLI to reach your hub?',
    );
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.origin === redirect.origin && at.pathname === '/callback');
    await expect(page.textContent('body')).resolves.toContain('Signed in; you can close this window.');
    await page.close();

    const run = await login;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Signed in to ${hub.url} as ${ANA.login}\n`);
    expect(run.stderr).toContain(`Waiting for you to sign in to ${hub.url} in the browser`);
    expect(run.stderr).not.toContain('Open this address');
    expect(run.stderr).toContain('No OS keychain');

    // The tokens are in the secret store (here its .env fallback), not in hosted.json.
    const kept = await keptTokens();
    if (!kept) throw new Error('no tokens kept');
    first = kept;
    expect(first.refresh_token).toBeTruthy();
    expect(first.expires_at).toBeGreaterThan(Date.now());
    const hosted = readFileSync(paths().hostedFile, 'utf8');
    expect(statSync(paths().hostedFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(hosted)).toMatchObject({ url: hub.url, client: { client_id: expect.any(String) } });
    expect(hosted).not.toContain(first.access_token);
    expect(hosted).not.toContain(first.refresh_token);
    expect(readFileSync(paths().envFile, 'utf8')).toContain(`${HOSTED_TOKENS_KEY}=`);
    expect(await mcpStatus(first.access_token)).toBe(200);
  });

  it('an access token that looks expired is refreshed on the next call, and the new tokens kept', async () => {
    const secrets = new EnvFileSecretStore(paths().envFile);
    await secrets.set(HOSTED_TOKENS_KEY, JSON.stringify({ ...first, expires_at: Date.now() - 1_000 }));
    const client = await openHostedClient(paths(), {}, { secrets });
    const Status = z.looseObject({ login: z.string().optional() });
    const status = await client.get(HOSTED_PATHS.status, Status);
    expect(status.login).toBe(ANA.login);
    const kept = await keptTokens();
    if (!kept) throw new Error('no tokens kept');
    refreshed = kept;
    expect(refreshed.access_token).not.toBe(first.access_token);
    expect(refreshed.expires_at).toBeGreaterThan(Date.now());
    expect(await mcpStatus(refreshed.access_token)).toBe(200);
  });

  it('signing in again with no browser: the address is printed, and the sign-in it replaces is revoked', async () => {
    const login = loginPrinting(hub.url);
    const url = await login.address;
    expect(url.startsWith(`${hub.url}/authorize?`)).toBe(true);
    const page = await ana.newPage();
    // Still signed in at the hub in this browser: straight to the consent page.
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Allow capabilities CLI to reach your hub?',
    );
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.hostname === '127.0.0.1' && at.pathname === '/callback');
    await page.close();
    const run = await login.done;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Signed in to ${hub.url} as ${ANA.login}\n`);
    expect(run.stderr).toContain(`Waiting for you to sign in to ${hub.url} in the browser`);

    const kept = await keptTokens();
    expect(kept?.access_token).toBeTruthy();
    expect(kept?.access_token).not.toBe(refreshed.access_token);
    expect(await mcpStatus(refreshed.access_token)).toBe(401);
    expect(await mcpStatus(kept?.access_token ?? '')).toBe(200);
    if (kept) refreshed = kept;
  });

  it('hub logout revokes the grant at the server and forgets the sign-in', async () => {
    const clientId = (
      JSON.parse(readFileSync(paths().hostedFile, 'utf8')) as { client: { client_id: string } }
    ).client.client_id;
    const run = await runCli(made.home, ['hub', 'logout']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Signed out of ${hub.url}; its tokens are revoked and forgotten here.\n`);
    expect(existsSync(paths().hostedFile)).toBe(false);
    expect(readFileSync(paths().envFile, 'utf8')).not.toContain(HOSTED_TOKENS_KEY);

    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshed.refresh_token ?? '',
      client_id: clientId,
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    expect(await mcpStatus(refreshed.access_token)).toBe(401);
    // The refresh token the refresh replaced belongs to the same grant: revoked with it.
    const former = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
      client_id: clientId,
    });
    expect(former.status).toBe(400);

    const again = await runCli(made.home, ['hub', 'logout']);
    expect(again.stdout).toBe('Not signed in to a hosted hub; nothing to do.\n');
  });
});
