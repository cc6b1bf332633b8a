/**
 * The hosted hub signs in to a source that asks for OAuth, end to end (issue #36): `wrangler dev`
 * on loopback with a SECRETS_KEY, the GitHub stand-in, and the OAuth-protected board with its own
 * authorization server (test/fixtures/oauth-board-server.ts); Chromium is the person, the MCP
 * SDK's OAuth client the agent.
 *
 * Ana signs in to the dashboard (GitHub) while allowing the agent, adds the board from Add a
 * source: the board answers 401, so the hub sends her browser to the board's authorization
 * server (discovered, the hub registered for its own callback), she allows, the browser comes back
 * to `/sources/oauth/callback`, and the tools are reviewed and confirmed. The agent's read
 * reaches the board with the grant's token. Two concurrent calls after the token expired refresh
 * it once. A 401 from the board marks the connection, and the source's page offers Sign in again,
 * which works. Bo, signed in to his own hub, replays Ana's callback with her state: refused, and
 * Ana's own callback still finishes, once. No token the board issued is in any of wrangler's state
 * files: the grant is encrypted at rest.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { type RunningGithubStandIn, startGithubStandIn } from '../fixtures/github-standin-server.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { type RunningWorker, startWranglerDev } from '../node/wrangler-dev.ts';
import { launchBrowser } from './browser.ts';
import {
  LoopbackOAuthProvider,
  type LoopbackRedirect,
  startLoopbackRedirect,
} from './loopback-oauth-client.ts';

const GITHUB = { clientId: 'Iv1.source-sign-in', clientSecret: 'source-sign-in-secret-0123456789abcdef' };
const ANA = { id: 616161, login: 'ana', name: 'Ana' };
const BO = { id: 626262, login: 'bo', name: 'Bo' };
const AGENT = 'Source Sign-in Agent';

type Result = Awaited<ReturnType<Client['callTool']>>;
const envelopeOf = (result: Result) => result.structuredContent as ExecuteEnvelope;

let github: RunningGithubStandIn;
let board: OAuthBoard;
let hub: RunningWorker;
let browser: Browser;
let ana: BrowserContext;
let redirect: LoopbackRedirect;
let mcp: Client;

beforeAll(async () => {
  browser = await launchBrowser();
  ana = await browser.newContext();
  github = await startGithubStandIn({ ...GITHUB, users: [ANA, BO] });
  board = await startOAuthBoard();
  board.expiresIn = 3;
  redirect = await startLoopbackRedirect();
  hub = await startWranglerDev({
    GITHUB_CLIENT_ID: GITHUB.clientId,
    GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_API_URL: github.url,
    ALLOW_PRIVATE_UPSTREAMS: '1',
    SECRETS_KEY: 'source-sign-in-e2e-secrets-key-0123456789abcdef',
  });
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await browser?.close();
  await hub?.stop();
  await redirect?.close();
  await board?.close();
  await github?.close();
}, 60_000);

/** `code` run by the agent at the hosted /mcp: its envelope. */
const execute = async (code: string) =>
  envelopeOf(await mcp.callTool({ name: 'execute', arguments: { code } }));

/** On the board's authorization page: Allow, and wait for the browser to be back at the hub at `path`. */
async function allowAtBoard(page: Page, path: (at: URL) => boolean) {
  expect(new URL(page.url()).origin).toBe(board.issuer);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
    'Allow capabilities hub to use the board?',
  );
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await page.waitForURL((at) => at.origin === hub.url && path(at));
}

/** The hub's page before the board's authorization server: it names where the browser goes; the link goes. */
async function continueToBoard(page: Page) {
  const link = page.getByRole('link', { name: `Continue to ${board.issuer}` });
  await link.waitFor();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
    `Sign in to ${new URL(board.url).origin}`,
  );
  await link.click();
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the hosted hub signs in to an OAuth source, under wrangler dev', { timeout: 120_000 }, () => {
  it('the agent is allowed through GitHub sign-in and consent (Ana is signed in to the dashboard)', async () => {
    const provider = new LoopbackOAuthProvider(redirect.url, AGENT);
    const transport = () =>
      new StreamableHTTPClientTransport(new URL('/mcp', hub.url), { authProvider: provider });
    const first = transport();
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const url = provider.authorizationUrl;
    if (!url) throw new Error('the SDK did not ask to redirect the browser');
    const page = await ana.newPage();
    await page.goto(url.href);
    await page.getByRole('button', { name: `Authorize ${ANA.login}` }).click();
    await page.waitForURL((at) => at.origin === hub.url && at.pathname === '/authorize');
    const landed = redirect.next();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.href.startsWith(redirect.url));
    await page.close();
    await first.finishAuth((await landed).searchParams);
    mcp = new Client({ name: 'e2e', version: '1.0.0' });
    await mcp.connect(transport());
  });

  it('Add a source signs in to the board in the browser, through the hub’s own callback', async () => {
    const page = await ana.newPage();
    await page.goto(`${hub.url}/sources/new`);
    await page.fill('#url', board.url);
    await page.getByRole('button', { name: 'List its tools' }).click();
    await continueToBoard(page);
    await page.waitForURL((u) => u.origin === board.issuer);
    const at = new URL(page.url());
    expect(at.searchParams.get('redirect_uri')).toBe(`${hub.url}/sources/oauth/callback`);
    expect(at.searchParams.get('code_challenge_method')).toBe('S256');
    expect(at.searchParams.get('resource')).toBe(board.url);
    await allowAtBoard(page, (u) => u.pathname.startsWith('/sources/new/draft_'));
    const review = (await page.textContent('body')) ?? '';
    expect(review, review).toContain('Review before adding');
    expect(review).toContain('list_posts');
    expect(review).toContain('your sign-in (OAuth), for the default connection');
    for (const token of [...board.accessTokens, ...board.refreshTokens]) expect(review).not.toContain(token);
    expect(await page.locator('input[name=namespace]').inputValue()).toBe('board');
    await page.getByRole('button', { name: /^Confirm/ }).click();
    await page.waitForURL((u) => u.pathname === '/sources/board');
    const source = (await page.textContent('body')) ?? '';
    expect(source).toContain('signs in with OAuth');
    await page.close();
    expect(board.issued.authorization_code).toBe(1);
  });

  it('the agent’s read reaches the board with the grant', async () => {
    const done = await execute('return await board.list_posts({})');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', result: { posts: 0 } });
    expect(board.calls.list_posts).toBe(1);
    expect(board.authorizations.at(-1)).toBe(`Bearer ${board.accessTokens.at(-1)}`);
  });

  it('two concurrent calls after the token expired refresh it once', async () => {
    // The refreshed token lives an hour; the current one is past its life (3 s) after this wait.
    board.expiresIn = 3600;
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const before = board.refreshesAsked.length;
    const both = await Promise.all([
      execute('return await board.list_posts({})'),
      execute('return await board.list_posts({})'),
    ]);
    for (const done of both) expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
    // One refresh request reached the token endpoint: the rotating refresh token was spent once.
    expect(board.refreshesAsked.slice(before)).toEqual([board.refreshTokens.at(-2)]);
    expect(board.authorizations.slice(-2)).toEqual([
      `Bearer ${board.accessTokens.at(-1)}`,
      `Bearer ${board.accessTokens.at(-1)}`,
    ]);
  });

  it('a 401 from the board marks the connection, and Sign in again on the source’s page mends it', async () => {
    board.revokeAll();
    const refused = await execute('return await board.list_posts({})');
    expect(refused.status, JSON.stringify(refused)).not.toBe('completed');
    const page = await ana.newPage();
    await page.goto(`${hub.url}/sources/board`);
    expect(await page.textContent('body')).toContain('the source refused its last token (401)');
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await continueToBoard(page);
    await page.waitForURL((u) => u.origin === board.issuer);
    await allowAtBoard(page, (u) => u.pathname === '/sources/board');
    expect(await page.textContent('body')).not.toContain('refused its last token');
    await page.close();
    const calls = board.calls.list_posts ?? 0;
    const done = await execute('return await board.list_posts({})');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
    expect(board.calls.list_posts).toBe(calls + 1);
    expect(board.authorizations.at(-1)).toBe(`Bearer ${board.accessTokens.at(-1)}`);
  });

  it('Bo replaying Ana’s callback with her state is refused; Ana’s finishes once', async () => {
    const page = await ana.newPage();
    await page.goto(`${hub.url}/sources/board`);
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await continueToBoard(page);
    await page.waitForURL((u) => u.origin === board.issuer);
    // The person's Allow, made from here: where the board sends the browser back, not yet followed.
    const callback = await board.decide(page.url(), 'allow');
    expect(new URL(callback).pathname).toBe('/sources/oauth/callback');
    const codes = board.issued.authorization_code;

    const bo = await browser.newContext();
    const boPage = await bo.newPage();
    await boPage.goto(`${hub.url}/`);
    await boPage.getByRole('button', { name: `Authorize ${BO.login}` }).click();
    await boPage.waitForURL((u) => u.origin === hub.url && u.pathname === '/');
    const stolen = await boPage.goto(callback);
    expect(stolen?.status()).toBe(400);
    expect(await boPage.textContent('body')).toContain('No sign-in of yours waits for this answer');
    await bo.close();
    expect(board.issued.authorization_code).toBe(codes);

    const own = await page.goto(callback);
    expect(new URL(page.url()).pathname).toBe('/sources/board');
    expect(own?.status()).toBe(200);
    expect(board.issued.authorization_code).toBe(codes + 1);
    const replayed = await page.goto(callback);
    expect(replayed?.status()).toBe(400);
    expect(board.issued.authorization_code).toBe(codes + 1);
    await page.close();
  });

  it('no token the board issued is in any of wrangler’s state files', () => {
    const tokens = [...board.accessTokens, ...board.refreshTokens];
    expect(tokens.length).toBeGreaterThan(4);
    const files = filesUnder(hub.stateDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file).toString('latin1');
      for (const token of tokens) expect(bytes.includes(token), `${token} in ${file}`).toBe(false);
    }
  });
});
