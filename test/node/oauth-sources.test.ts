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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../../local/home.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { cli, hubHome, runCli } from './cli-process.ts';
import { browser, resume } from './oauth-person.ts';

const KEY = secretKey('board', 'default', 'oauth');

let board: OAuthBoard;
beforeAll(async () => {
  board = await startOAuthBoard();
});
afterAll(() => board?.close());

const homes: Array<{ remove(): void }> = [];
function home(): string {
  const made = hubHome();
  homes.push(made);
  expect(cli(made.home, ['hub', 'init']).status).toBe(0);
  return made.home;
}
afterEach(() => {
  for (const made of homes.splice(0)) made.remove();
});

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
    expect(first?.issued_for).toBe(new URL(board.url).origin);
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

    // The person revokes the grant at the service, and the token expires: the refresh fails, so the
    // call is not sent; the run waits for the connection, telling the model what the person does.
    board.revokeAll();
    board.expireAll();
    await secrets.set(KEY, JSON.stringify({ ...second, expires_at: Date.now() - 1_000 }));
    const sent = board.calls.list_posts ?? 0;
    const waiting = await call(at, 'board.list_posts');
    expect(waiting.status, JSON.stringify(waiting)).toBe('awaiting_connection');
    expect(waiting.pending).toEqual([
      expect.objectContaining({
        kind: 'connection',
        message:
          'A person must sign in again to connection board/default: `capabilities hub auth board`. Then resume.',
        connection: 'default',
      }),
    ]);
    expect(JSON.stringify(waiting)).not.toContain(board.issuer);
    expect(board.calls.list_posts).toBe(sent);
    const shown = JSON.parse(cli(at, ['--json', 'hub', 'runs', 'show', waiting.runId]).stdout);
    expect(shown.pending).toEqual([
      expect.objectContaining({ kind: 'connection', address: 'board.list_posts' }),
    ]);
    expect(JSON.stringify(shown)).not.toContain(second?.refresh_token ?? '?');

    // Resumed before anyone signed in: it still waits, and nothing is sent.
    expect((await resume(at, waiting.runId)).status).toBe('awaiting_connection');
    expect(board.calls.list_posts).toBe(sent);

    // `hub approve` decides nothing here: it says the call waits for a sign-in, and how to give it.
    const approve = await runCli(at, ['hub', 'approve', waiting.runId, '--choice', 'once']);
    expect(approve.stderr).toContain('board.list_posts on default waits for a sign-in, not a decision:');
    expect(approve.stderr).toContain('A person must sign in again: `capabilities hub auth board`.');
    expect(approve.stdout).toContain('awaiting_connection');
    expect(board.calls.list_posts).toBe(sent);

    // The person signs in again; the resumed run makes the call, once.
    const opener = browser(at);
    const auth = runCli(at, ['hub', 'auth', 'board'], opener.env);
    await person(await opener.opened(auth), 'allow');
    const signed = await auth;
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('Signed in as board/default (the default connection).');
    const resumed = await resume(at, waiting.runId);
    expect(resumed.status, JSON.stringify(resumed)).toBe('completed');
    expect(board.calls.list_posts).toBe(sent + 1);
    expect((await resume(at, waiting.runId)).status).toBe('refused');
    expect(board.calls.list_posts).toBe(sent + 1);
    const journal = JSON.parse(cli(at, ['--json', 'hub', 'runs', 'show', waiting.runId]).stdout);
    // Journaled once, when the resumed run made it: the attempt that waited recorded nothing.
    expect(journal.journal).toEqual([
      expect.objectContaining({
        seq: 0,
        address: 'board.list_posts',
        outcome: expect.objectContaining({ ok: true }),
      }),
    ]);
  });

  it('a 401 to a token the clock calls good: listing refreshes once and lists again; a tool call is never retried, the next one refreshes first', async () => {
    const at = home();
    expect((await addSignedIn(at)).status).toBe(0);
    const refreshes = board.issued.refresh_token;
    board.expireAll();
    const listed = await runCli(at, ['hub', 'refresh', 'board']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('board: no changes');
    expect(board.issued.refresh_token).toBe(refreshes + 1);

    // The hub lists a source's tools before its first call in a process (contract-recheck.ts), and
    // a listing refused 401 refreshes: the token must die between that listing and the call.
    board.expireBeforeCallOf = 'whoami';
    const whoami = board.calls.whoami ?? 0;
    const failed = await call(at, 'board.whoami');
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toContain('asks for a sign-in (it answered 401 Unauthorized)');
    expect(board.issued.refresh_token).toBe(refreshes + 1);
    expect(board.calls.whoami ?? 0).toBe(whoami);
    // The refused token is marked expired: the next call refreshes first, and goes through.
    const next = await call(at, 'board.whoami');
    expect(next.status).toBe('completed');
    expect(board.issued.refresh_token).toBe(refreshes + 2);
    expect(board.calls.whoami).toBe(whoami + 1);
  });

  it('hub auth --connection adds a second account; signing in again and removing the source revoke the grants let go', async () => {
    const at = home();
    expect((await addSignedIn(at)).status).toBe(0);
    const opener = browser(at);
    const auth = runCli(at, ['hub', 'auth', 'board', '--connection', 'work'], opener.env);
    await person(await opener.opened(auth), 'allow');
    const signed = await auth;
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toBe('Signed in as board/work.\n');
    const listed = JSON.parse(cli(at, ['--json', 'hub', 'connections', 'board']).stdout);
    expect(
      listed.connections.map((c: { name: string; isDefault: boolean }) => [c.name, c.isDefault]),
    ).toEqual([
      ['default', true],
      ['work', false],
    ]);
    const onWork = await runCli(at, ['--json', 'hub', 'call', 'board.whoami', '{}', '--connection', 'work']);
    expect(JSON.parse(onWork.stdout).status, onWork.stdout).toBe('completed');
    expect(board.authorizations.at(-1)).toBe(`Bearer ${board.accessTokens.at(-1)}`);

    // Signing the default connection in again revokes the sign-in it replaces; removing the
    // source revokes both accounts' grants, and forgets them here.
    const revoked = board.revoked;
    const again = browser(at);
    const reauth = runCli(at, ['hub', 'auth', 'board'], again.env);
    await person(await again.opened(reauth), 'allow');
    expect((await reauth).status).toBe(0);
    expect(board.revoked).toBe(revoked + 1);
    const removed = await runCli(at, ['hub', 'remove', 'board', '--yes']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(board.revoked).toBe(revoked + 3);
    expect(await kept(at)).toBeUndefined();
  });
});

describe('bad input: each says what to do next, and nothing is half-added', { timeout: 60_000 }, () => {
  let own: OAuthBoard;
  beforeEach(async () => {
    own = await startOAuthBoard();
  });
  afterEach(() => own.close());

  /** `hub add` of `own` with the person doing `choice` (or nothing, when no browser opens). */
  async function addOwn(at: string, choice?: 'allow' | 'deny') {
    const opener = browser(at);
    const add = runCli(at, ['hub', 'add', own.url, '--namespace', 'board', '--yes'], opener.env);
    if (choice) {
      const back = await own.decide(await opener.opened(add), choice);
      await (await fetch(back)).text();
    }
    return add;
  }

  const nothingAdded = async (at: string) => {
    expect(JSON.parse(cli(at, ['--json', 'hub', 'list']).stdout).sources).toEqual([]);
    expect(await kept(at)).toBeUndefined();
  };

  it('an authorization server that does not answer', async () => {
    const at = home();
    await own.stopAuthorizationServer();
    const run = await addOwn(at);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `could not reach the authorization server of ${new URL(own.url).origin} (ECONNREFUSED); check that it is up, then run \`capabilities hub add ${own.url}\` again`,
    );
    await nothingAdded(at);
  });

  it('a person who cancels the sign-in', async () => {
    const at = home();
    const run = await addOwn(at, 'deny');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `the sign-in to ${new URL(own.url).origin} was not completed (access_denied: The person denied the request); run \`capabilities hub add ${own.url}\` to try again`,
    );
    await nothingAdded(at);
  });

  it('a redirect URI mismatch', async () => {
    const at = home();
    own.tokenMode = 'redirect_mismatch';
    const run = await addOwn(at, 'allow');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('refused the sign-in (invalid_grant: redirect_uri does not match);');
    expect(run.stderr).toContain(
      'that client must allow the redirect URI http://127.0.0.1/callback on any port',
    );
    expect(run.stderr).toContain(`run \`capabilities hub add ${own.url}\` to try again`);
    await nothingAdded(at);
  });

  it('a token endpoint that answers garbage: at sign-in, and at a refresh', async () => {
    const at = home();
    own.tokenMode = 'garbage';
    const run = await addOwn(at, 'allow');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `the authorization server of ${new URL(own.url).origin} did not answer as OAuth asks`,
    );
    expect(run.stderr).toContain('to try again, or ask its operator');
    await nothingAdded(at);

    own.tokenMode = 'ok';
    expect((await addOwn(at, 'allow')).status).toBe(0);
    own.tokenMode = 'garbage';
    own.expireAll();
    const grant = await kept(at);
    const secrets = new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at }).envFile);
    await secrets.set(KEY, JSON.stringify({ ...grant, expires_at: Date.now() - 1_000 }));
    const waiting = await call(at, 'board.list_posts');
    expect(waiting.status).toBe('awaiting_connection');
    expect(own.calls.list_posts).toBeUndefined();
  });

  it('a service that issues access tokens too short to keep: refused with why, and nothing is added', async () => {
    const at = home();
    own.tokenMode = 'short';
    const run = await addOwn(at, 'allow');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "the sign-in's access token is shorter than 8 characters, short enough to be guessed; nothing was stored.",
    );
    await nothingAdded(at);
    // The grant the hub could not keep is revoked where it was issued, not left to linger.
    expect(own.revoked).toBe(1);
  });

  it('a review that cannot be made after the sign-in: the fresh grant is revoked, and nothing is added', async () => {
    const at = home();
    const opener = browser(at);
    const add = runCli(at, ['hub', 'add', own.url, '--namespace', 'board'], opener.env);
    await (await fetch(await own.decide(await opener.opened(add), 'allow'))).text();
    const run = await add;
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('the review needs a person: run it in a terminal, or pass --yes');
    await nothingAdded(at);
    expect(own.revoked).toBe(1);
  });

  it('an authorization server that registers no clients: it says to register one, and --client-id signs in with it', async () => {
    const at = home();
    own.dynamicRegistration = false;
    const refused = await addOwn(at);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `the authorization server of ${new URL(own.url).origin} does not register clients on its own (it has no registration endpoint); register the hub with it (redirect URI http://127.0.0.1/callback, any port) and run \`capabilities hub add ${own.url}\` again with --client-id <its client id>`,
    );
    await nothingAdded(at);

    own.preRegister('hub-by-hand');
    const opener = browser(at);
    const add = runCli(
      at,
      ['hub', 'add', own.url, '--namespace', 'board', '--yes', '--client-id', 'hub-by-hand'],
      opener.env,
    );
    const url = new URL(await opener.opened(add));
    expect(url.searchParams.get('client_id')).toBe('hub-by-hand');
    await (await fetch(await own.decide(url.href, 'allow'))).text();
    const added = await add;
    expect(added.status, added.stderr).toBe(0);
    expect((await kept(at))?.client_id).toBe('hub-by-hand');
  });

  it('a server that answers 401 with no OAuth metadata: it says so, and nothing is added', async () => {
    const at = home();
    const bare = createServer((_request, response) => response.writeHead(401).end('no'));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`;
    try {
      const run = await runCli(at, ['hub', 'add', url, '--yes']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `${new URL(url).origin} asks for a sign-in but publishes no OAuth authorization server the hub can find`,
      );
      await nothingAdded(at);
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });
});
