/**
 * An OpenAPI source whose document signs in with OAuth 2 (J3: "OAuth 2 through the same flow"),
 * through the real CLI on loopback. The authorization server is the OAuth board's (its own
 * origin: metadata, dynamic registration, PKCE, rotating refresh tokens, revocation); the API is
 * a small server here whose document names that server's authorization code flow and whose
 * `/v1/posts` answers only a live access token. `hub add` of the document signs in in the
 * person's browser (a script `$BROWSER` runs; the test does what the person does on the page),
 * calls carry the token to the API's origin only, an expired token is refreshed without the
 * person, a 401 marks the token refused, and a revoked grant waits for a person to sign in again.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../../local/home.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { type OAuthBoard, startOAuthBoard } from '../fixtures/oauth-board-server.ts';
import { cli, hubHome, runCli } from './cli-process.ts';
import { browser, resume } from './oauth-person.ts';

const KEY = secretKey('posts', 'default', 'oauth');

let board: OAuthBoard;
let api: Server;
let base: string;
/** Every request the API got: method, path, Authorization. */
let hits: Array<[string, string, string]>;
/** What the API answers a live token with, when not its posts (a 401 the clock does not foresee). */
let refuseNext = false;
const posts: string[] = [];
/** The document's authorization URL, when not the authorization server's own endpoint. */
let authorizationUrl: string | undefined;
/** The document's token URL, when not the authorization server's own endpoint. */
let tokenUrl: string | undefined;

function document(): unknown {
  return {
    openapi: '3.0.3',
    info: { title: 'Posts', version: '1' },
    servers: [{ url: `${base}/v1` }],
    components: {
      securitySchemes: {
        board_auth: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: authorizationUrl ?? `${board.issuer}/authorize`,
              tokenUrl: tokenUrl ?? `${board.issuer}/token`,
              scopes: { board: 'read and write the board' },
            },
          },
        },
      },
    },
    security: [{ board_auth: ['board'] }],
    paths: {
      '/posts': {
        get: {
          operationId: 'listPosts',
          summary: 'List the posts',
          responses: { 200: { description: 'ok' } },
        },
        post: {
          operationId: 'addPost',
          summary: 'Add a post',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
              },
            },
          },
          responses: { 200: { description: 'ok' } },
        },
      },
    },
  };
}

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

beforeAll(async () => {
  board = await startOAuthBoard();
  api = createServer(async (request, response) => {
    const json = (status: number, value: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/openapi.json') return json(200, document());
    const authorization = request.headers.authorization ?? '';
    hits.push([request.method ?? '', path, authorization]);
    if (!board.accepts(authorization) || refuseNext) {
      refuseNext = false;
      return json(401, { message: 'sign in' });
    }
    if (path === '/v1/posts' && request.method === 'GET') return json(200, { posts, seen: authorization });
    if (path === '/v1/posts' && request.method === 'POST') {
      posts.push((JSON.parse(await body(request)) as { text: string }).text);
      return json(200, { id: posts.length });
    }
    json(404, { message: 'no such operation' });
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await board?.close();
  await new Promise((done) => api?.close(done));
});

const homes: Array<{ remove(): void }> = [];
let at: string;
beforeEach(() => {
  hits = [];
  board.dynamicRegistration = true;
  authorizationUrl = undefined;
  tokenUrl = undefined;
  const made = hubHome();
  homes.push(made);
  at = made.home;
  expect(cli(at, ['hub', 'init']).status).toBe(0);
});
afterEach(() => {
  for (const made of homes.splice(0)) made.remove();
});

const kept = async () => {
  const value = await new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at }).envFile).get(KEY);
  return value === undefined ? undefined : OAuthGrant.parse(JSON.parse(value));
};

/** The person allows on the authorization page; the browser then goes back to the loopback. */
async function allow(url: string): Promise<string> {
  return (await fetch(await board.decide(url, 'allow'))).text();
}

/** `hub add` of the document, with `extra` arguments, the person allowing in the browser. */
async function addSignedIn(extra: string[] = []) {
  const opener = browser(at);
  const add = runCli(
    at,
    ['hub', 'add', `${base}/openapi.json`, '--namespace', 'posts', '--yes', ...extra],
    opener.env,
  );
  const url = new URL(await opener.opened(add));
  expect(url.origin).toBe(board.issuer);
  expect(url.searchParams.get('scope')).toBe('board');
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(await allow(url.href)).toContain('Signed in; you can close this window.');
  return add;
}

const exec = (code: string) =>
  runCli(at, ['--json', 'hub', 'exec', code]).then((run) => {
    expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
    return JSON.parse(run.stdout) as {
      runId: string;
      status: string;
      result?: unknown;
      pending?: { kind: string; message: string }[];
    };
  });

describe('an OpenAPI source that signs in with OAuth 2', { timeout: 120_000 }, () => {
  it('add signs in once; calls carry the token to the API only; an expired token is refreshed; a revoked grant waits for a sign-in and resumes once', async () => {
    const added = await addSignedIn();
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toContain('stored board_auth (OAuth 2 sign-in (authorization code flow))');
    const grant = await kept();
    expect(grant?.issued_for).toBe(base);
    expect(grant?.token_endpoint).toBe(`${board.issuer}/token`);
    expect(grant?.revocation_endpoint).toBe(`${board.issuer}/revoke`);
    expect(grant?.access_token).toBe(board.accessTokens.at(-1));
    expect(cli(at, ['hub', 'connections', 'posts']).stdout).toContain('* posts/default  OAuth sign-in');

    const read = await exec('return await posts.listPosts({});');
    expect(read.status, JSON.stringify(read)).toBe('completed');
    expect(hits).toEqual([['GET', '/v1/posts', `Bearer ${grant?.access_token}`]]);
    // The API quotes the token back: code sees it scrubbed.
    expect(JSON.stringify(read)).not.toContain(grant?.access_token);
    expect(JSON.stringify(read)).toContain('[secret]');

    // The token expires: the next call refreshes it first, without the person.
    board.expireAll();
    const secrets = new EnvFileSecretStore(homePaths({ CAPABILITIES_HOME: at }).envFile);
    await secrets.set(KEY, JSON.stringify({ ...grant, expires_at: Date.now() - 1_000 }));
    const refreshes = board.issued.refresh_token;
    expect((await exec('return await posts.listPosts({});')).status).toBe('completed');
    expect(board.issued.refresh_token).toBe(refreshes + 1);
    const renewed = await kept();
    expect(hits.at(-1)).toEqual(['GET', '/v1/posts', `Bearer ${renewed?.access_token}`]);

    // A 401 to a token the clock calls good: the call fails with the status, the token is marked
    // refused, and the next call refreshes first.
    refuseNext = true;
    const refused = await exec(
      'try { await posts.listPosts({}); } catch (e) { return { status: e.status }; }',
    );
    expect(refused.result).toEqual({ status: 401 });
    expect((await exec('return await posts.listPosts({});')).status).toBe('completed');
    expect(board.issued.refresh_token).toBe(refreshes + 2);

    // Revoked at the service: the write (approved) waits for a sign-in; nothing reaches the API.
    board.revokeAll();
    board.expireAll();
    const third = await kept();
    await secrets.set(KEY, JSON.stringify({ ...third, expires_at: Date.now() - 1_000 }));
    const write = await exec('return await posts.addPost({ body: { text: "hello" } });');
    expect(write.status).toBe('awaiting_approval');
    const approved = await runCli(at, ['--json', 'hub', 'approve', write.runId, '--choice', 'once']);
    expect(approved.stdout).toContain('awaiting_connection');
    const sent = hits.length;
    expect(posts).toEqual([]);

    const opener = browser(at);
    const auth = runCli(at, ['hub', 'auth', 'posts'], opener.env);
    await allow(await opener.opened(auth));
    const signed = await auth;
    expect(signed.status, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('Signed in as posts/default (the default connection).');
    expect((await resume(at, write.runId)).status).toBe('completed');
    expect(posts).toEqual(['hello']);
    expect((await resume(at, write.runId)).status).toBe('refused');
    expect(posts).toEqual(['hello']);
    expect(hits.length).toBe(sent + 1);
  });

  it('an authorization server that registers no clients asks for --client-id, and a registered one signs in', async () => {
    board.dynamicRegistration = false;
    const added = await runCli(at, ['hub', 'add', `${base}/openapi.json`, '--namespace', 'posts', '--yes']);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      `the authorization server of ${board.issuer} does not register clients on its own`,
    );
    expect(added.stderr).toContain('Enter the credential later with `capabilities hub auth posts --oauth`.');
    expect(await kept()).toBeUndefined();

    board.preRegister('hub-posts-client');
    const opener = browser(at);
    const auth = runCli(
      at,
      ['hub', 'auth', 'posts', '--oauth', '--client-id', 'hub-posts-client'],
      opener.env,
    );
    const url = new URL(await opener.opened(auth));
    expect(url.searchParams.get('client_id')).toBe('hub-posts-client');
    await allow(url.href);
    expect((await auth).status).toBe(0);
    expect((await kept())?.client_id).toBe('hub-posts-client');
    expect((await exec('return await posts.listPosts({});')).status).toBe('completed');
  });

  it("an authorization server's metadata that names other endpoints than the document is not used: the document's flow, with --client-id", async () => {
    authorizationUrl = `${board.issuer}/authorize?via=document`;
    board.preRegister('hub-document-client');
    const added = await addSignedIn(['--client-id', 'hub-document-client']);
    expect(added.status, added.stderr).toBe(0);
    const grant = await kept();
    expect(grant?.client_id).toBe('hub-document-client');
    expect(grant?.authorization_server).toBe(board.issuer);
    // Only the server's own metadata names a revocation endpoint; the document names none.
    expect(grant?.revocation_endpoint).toBeUndefined();
    expect((await exec('return await posts.listPosts({});')).status).toBe('completed');
  });

  it('refuses a document whose token URL is on another origin than its sign-in page, before the browser opens', async () => {
    tokenUrl = `${base}/steal-the-code`;
    board.preRegister('hub-document-client');
    const opener = browser(at);
    const added = await runCli(
      at,
      [
        'hub',
        'add',
        `${base}/openapi.json`,
        '--namespace',
        'posts',
        '--yes',
        '--client-id',
        'hub-document-client',
      ],
      opener.env,
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      `sends the sign-in from ${board.issuer} to a token URL on another origin, ${base}`,
    );
    expect(added.stderr).toContain('Enter the credential later with `capabilities hub auth posts --oauth');
    expect(await kept()).toBeUndefined();
    expect(hits.filter(([, path]) => path === '/steal-the-code')).toEqual([]);
  });

  it('with --no-input the sign-in is left for later, and named', async () => {
    const added = await runCli(at, [
      '--no-input',
      'hub',
      'add',
      `${base}/openapi.json`,
      '--namespace',
      'posts',
      '--yes',
    ]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain('Enter the credential later with `capabilities hub auth posts --oauth`.');
    expect(await kept()).toBeUndefined();
  });
});
