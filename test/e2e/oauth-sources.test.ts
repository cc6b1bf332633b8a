/**
 * OAuth connections end to end, with Chromium as the person (issue #17, the proof): the board
 * protected by an authorization server on loopback that issues short-lived tokens
 * (test/fixtures/oauth-board-server.ts). `hub add` opens the authorization page through $BROWSER
 * (a script that hands the address to the test), Chromium clicks Allow and lands on the CLI's
 * loopback redirect; the tool is called with the token; the token expires and the next call
 * refreshes it without the person; the grant is revoked and the next call waits for a connection
 * without being sent; `hub auth` signs in again in Chromium, and the resumed run makes the call:
 * the board counts every call it ran, and nothing ran twice.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../../local/home.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { cli, cliEnv, hubHome, REPO, runCli } from '../node/cli-process.ts';
import { launchBrowser } from './browser.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const KEY = secretKey('board', 'default', 'oauth');

let board: OAuthBoard;
let browser: Browser;
let made: { home: string; remove(): void };
let opened: string;
let browserScript: string;

beforeAll(async () => {
  browser = await launchBrowser();
  board = await startOAuthBoard();
  board.expiresIn = 2;
  made = hubHome();
  expect(cli(made.home, ['hub', 'init']).status).toBe(0);
  opened = join(made.home, 'opened-url');
  browserScript = join(made.home, 'browser.sh');
  writeFileSync(browserScript, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(browserScript, 0o700);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await board?.close();
  made?.remove();
});

const PERSON = { BROWSER: '', CAPABILITIES_OPEN_PAGES: '1' };

/** Chromium, as the person, allows on the page the CLI opened; resolves once the CLI has exited. */
async function signInWithChromium(command: Promise<{ status: number; stdout: string; stderr: string }>) {
  let done = false;
  void command.finally(() => {
    done = true;
  });
  while (!existsSync(opened) || readFileSync(opened, 'utf8') === '') {
    if (done) throw new Error(`the command ended before it opened a browser: ${(await command).stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = readFileSync(opened, 'utf8');
  rmSync(opened);
  expect(new URL(url).origin).toBe(board.issuer);
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Allow capabilities hub to use the board?',
    );
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.hostname === '127.0.0.1' && at.pathname === '/callback');
    await expect(page.textContent('body')).resolves.toContain('Signed in; you can close this window.');
  } finally {
    await page.close();
  }
  const run = await command;
  expect(run.status, run.stderr).toBe(0);
  return run;
}

const kept = async () => {
  const value = await new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: made.home }).envFile).get(KEY);
  return value === undefined ? undefined : OAuthGrant.parse(JSON.parse(value));
};

async function call(address: string) {
  const run = await runCli(made.home, ['--json', 'hub', 'call', address, '{}']);
  return JSON.parse(run.stdout) as { runId: string; status: string; pending?: { kind: string }[] };
}

/** `execute({ resume })` in a fresh process (test/node/resume-run.ts), not blocking the board. */
async function resume(runId: string): Promise<{ status: string }> {
  const child = spawn(
    NODE,
    ['--disable-warning=ExperimentalWarning', join(REPO, 'test', 'node', 'resume-run.ts'), runId],
    { env: cliEnv(made.home), stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  await new Promise((resolve) => child.once('close', resolve));
  return JSON.parse(stdout);
}

/** Until the board's short-lived tokens have expired by its own clock. */
async function tokensExpire(): Promise<void> {
  const grant = await kept();
  while (Date.now() <= (grant?.expires_at ?? 0)) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('an OAuth source, signed in through Chromium', { timeout: 120_000 }, () => {
  it('add, call, expire and refresh without the person, revoke and wait, sign in again and resume: nothing ran twice', async () => {
    PERSON.BROWSER = browserScript;
    const added = await signInWithChromium(
      runCli(made.home, ['hub', 'add', board.url, '--namespace', 'board', '--yes'], PERSON),
    );
    expect(added.stdout).toContain('Signed in as connection board/default.');

    expect((await call('board.list_posts')).status).toBe('completed');
    expect(board.calls.list_posts).toBe(1);

    // Short-lived tokens: once expired, the next call refreshes first, without the person.
    await tokensExpire();
    const refreshes = board.issued.refresh_token;
    expect((await call('board.list_posts')).status).toBe('completed');
    expect(board.issued.refresh_token).toBeGreaterThan(refreshes);
    expect(board.calls.list_posts).toBe(2);

    // Revoked at the service: the next call is not sent, and waits for the person.
    board.revokeAll();
    await tokensExpire();
    const waiting = await call('board.list_posts');
    expect(waiting.status).toBe('awaiting_connection');
    expect(waiting.pending?.map((p) => p.kind)).toEqual(['connection']);
    expect(board.calls.list_posts).toBe(2);

    // Signed in again in Chromium; long-lived tokens now, so the resumed call uses this sign-in.
    board.expiresIn = 3600;
    await signInWithChromium(runCli(made.home, ['hub', 'auth', 'board'], PERSON));
    expect((await resume(waiting.runId)).status).toBe('completed');
    expect(board.calls.list_posts).toBe(3);
    expect((await resume(waiting.runId)).status).toBe('refused');
    expect(board.calls.list_posts).toBe(3);
  });
});
