/**
 * `hub login`, `hub logout` and the HostedClient where no hosted hub is needed: a home without a
 * hub, an address that is not one, a hub that cannot be reached, a server that is not a hub, and
 * a client over a kept sign-in talking to a stand-in that answers wrongly. The real sign-in
 * against the Worker is test/e2e/hosted-login.test.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import { homePaths } from '../../local/home.ts';
import { HOSTED_PATHS } from '../../local/hosted/hosted-api.ts';
import { openHostedClient } from '../../local/hosted/hosted-client.ts';
import { hostedSecrets } from '../../local/hosted/hosted-secrets.ts';
import {
  HOSTED_TOKENS_KEY,
  readHostedFile,
  writeHostedFile,
  writeHostedTokens,
} from '../../local/hosted/hosted-state.ts';
import { startLoopbackRedirect } from '../../local/oauth/loopback-redirect.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { cli, freePort, REPO, runCli, tempHome } from './cli-process.ts';

const homes: Array<{ remove(): void }> = [];
function home(init = true): string {
  const made = tempHome();
  homes.push(made);
  if (init) expect(cli(made.home, ['hub', 'init']).status).toBe(0);
  return made.home;
}
afterEach(() => {
  for (const made of homes.splice(0)) made.remove();
});

/** A server that is no hub: every path answers what `answer` says. */
let stranger: Server;
let strangerUrl: string;
let answer: (path: string) => { status: number; type: string; body: string } = () => ({
  status: 200,
  type: 'text/html',
  body: '<h1>Welcome</h1>',
});
beforeAll(async () => {
  stranger = createServer((request, response) => {
    const { status, type, body } = answer(new URL(request.url ?? '/', 'http://x').pathname);
    response.writeHead(status, { 'content-type': type }).end(body);
  });
  // Idle sockets stay open: a CLI run with spawnSync blocks this process past the default 5 s, and
  // the server closing a socket the client is reusing at that moment would be ECONNRESET.
  stranger.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      stranger.closeAllConnections();
      stranger.close(() => resolve());
    }),
);

/** A home signed in to `url` as `hub login` leaves it, with tokens that are made up. */
async function signedIn(at: string, url: string, expiresAt = Date.now() + 3_600_000) {
  const paths = homePaths({ CAPABILITIES_HOME: at });
  writeHostedFile(paths.hostedFile, {
    url,
    client: { client_id: 'cli-client', redirect_uris: ['http://127.0.0.1:1/callback'] },
    signedInAt: new Date().toISOString(),
  });
  const secrets = new EnvFileSecretStore(paths.envFile);
  await writeHostedTokens(secrets, {
    access_token: 'access-token-0123456789',
    refresh_token: 'refresh-token-0123456789',
    token_type: 'bearer',
    expires_at: expiresAt,
    hub: url,
  });
  return { paths, secrets };
}

describe('hub login and logout without a hosted hub', () => {
  it('login needs the local hub and does not create one', () => {
    const at = home(false);
    const run = cli(at, ['hub', 'login', '--url', 'https://hub.example.com']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('capabilities hub init');
    expect(existsSync(join(at, 'hub'))).toBe(false);
  });

  it('an address that is not a URL, or http away from this machine, is refused before anything is sent', () => {
    const at = home();
    const notUrl = cli(at, ['hub', 'login', '--url', 'hub.example.com']);
    expect(notUrl.status).toBe(2);
    expect(notUrl.stderr).toContain('hub.example.com is not a URL');
    const plain = cli(at, ['--json', 'hub', 'login', '--url', 'http://hub.example.com']);
    expect(plain.status).toBe(2);
    expect(JSON.parse(plain.stdout).error.message).toContain('is not an https address');
  });

  it('an address where nothing listens: could not reach it, and nothing is kept', async () => {
    const at = home();
    const url = `http://127.0.0.1:${await freePort()}`;
    const run = await runCli(at, ['hub', 'login', '--url', url]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(`could not reach ${url} (ECONNREFUSED); check the address`);
    expect(existsSync(homePaths({ CAPABILITIES_HOME: at }).hostedFile)).toBe(false);
  });

  it('a server that is not a hub: it did not answer as a capabilities hub', async () => {
    const at = home();
    answer = () => ({ status: 404, type: 'text/plain', body: 'nothing here' });
    const run = await runCli(at, ['hub', 'login', '--url', strangerUrl]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(`${strangerUrl} did not answer as a capabilities hub`);
    expect(existsSync(homePaths({ CAPABILITIES_HOME: at }).hostedFile)).toBe(false);
  });

  it('logout when not signed in says so and changes nothing', () => {
    const at = home();
    const run = cli(at, ['hub', 'logout']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('Not signed in to a hosted hub; nothing to do.\n');
    expect(JSON.parse(cli(at, ['--json', 'hub', 'logout']).stdout)).toEqual({ signedIn: false });
  });

  it('logout with the hub unreachable forgets the sign-in anyway and says the tokens stay valid', async () => {
    const at = home();
    const url = `http://127.0.0.1:${await freePort()}`;
    const { paths } = await signedIn(at, url);
    expect(statSync(paths.hostedFile).mode & 0o777).toBe(0o600);
    const run = await runCli(at, ['hub', 'logout']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Signed out here, but could not revoke the sign-in at ${url}`);
    expect(run.stdout).toContain('its tokens stay valid until they expire');
    expect(existsSync(paths.hostedFile)).toBe(false);
    expect(readFileSync(paths.envFile, 'utf8')).not.toContain(HOSTED_TOKENS_KEY);
  });
});

describe('the loopback redirect', () => {
  it('listens on 127.0.0.1 and takes only /callback with the state it waits for', async () => {
    const redirect = await startLoopbackRedirect();
    try {
      const at = new URL(redirect.url);
      expect(at.hostname).toBe('127.0.0.1');
      expect(at.pathname).toBe('/callback');
      const arrival = redirect.arrival(() => 'the-state');
      const other = await fetch(new URL('/favicon.ico', at));
      expect(other.status).toBe(404);
      const wrong = await fetch(`${redirect.url}?state=another&code=stolen`);
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain('not the sign-in');
      const right = await fetch(
        `${redirect.url}?state=the-state&code=the-code&iss=${encodeURIComponent('https://hub.example.com')}`,
      );
      expect(right.status).toBe(200);
      expect(await right.text()).toBe('Signed in; you can close this window.\n');
      await expect(arrival).resolves.toEqual({ code: 'the-code', iss: 'https://hub.example.com' });
    } finally {
      await redirect.close();
    }
  });

  it('a refusal comes back as the error, and waiting ends with what to do', async () => {
    const redirect = await startLoopbackRedirect();
    try {
      const denied = redirect.arrival(() => 's');
      await fetch(`${redirect.url}?state=s&error=access_denied&error_description=The+user+denied`);
      await expect(denied).resolves.toEqual({ error: 'access_denied', description: 'The user denied' });
      await expect(redirect.arrival(() => 's', 1)).rejects.toThrow(
        'no sign-in came back from the browser within 1 s; run `capabilities hub login` again',
      );
    } finally {
      await redirect.close();
    }
  });
});

describe('the hosted tokens are secrets of the local hub', () => {
  it('a refresh in another process is read again once it marks hosted.json, and the old tokens stay scrubbed', async () => {
    const { paths, secrets } = await signedIn(home(), 'https://hub.example.com');
    const hosted = hostedSecrets(paths.hostedFile, () => secrets);
    await hosted.ready;
    expect(hosted.values()).toEqual(['access-token-0123456789', 'refresh-token-0123456789']);
    // Another process refreshes: new tokens, and hosted.json marked (as hosted-client.ts does).
    await writeHostedTokens(secrets, {
      access_token: 'access-token-rotated-01',
      refresh_token: 'refresh-token-rotated-01',
      token_type: 'bearer',
      hub: 'https://hub.example.com',
    });
    await hosted.refresh();
    expect(hosted.values()).toHaveLength(2);
    const file = readHostedFile(paths.hostedFile);
    if (!file) throw new Error('no hosted.json');
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeHostedFile(paths.hostedFile, { ...file, tokensAt: new Date().toISOString() });
    await hosted.refresh();
    expect(hosted.values()).toEqual([
      'access-token-0123456789',
      'refresh-token-0123456789',
      'access-token-rotated-01',
      'refresh-token-rotated-01',
    ]);
  });

  it('a source that reads the secrets file gets them scrubbed', async () => {
    const at = home();
    const { paths } = await signedIn(at, 'https://hub.example.com');
    const node = join(REPO, 'node_modules', 'node', 'bin', 'node');
    const files = join(
      REPO,
      'node_modules',
      '@modelcontextprotocol',
      'server-filesystem',
      'dist',
      'index.js',
    );
    const added = cli(at, [
      'hub',
      'add',
      '--yes',
      '--allow-home',
      '--namespace',
      'files',
      '--',
      node,
      files,
      at,
    ]);
    expect(added.status, added.stderr).toBe(0);
    const read = cli(at, ['hub', 'call', 'files.read_text_file', JSON.stringify({ path: paths.envFile })]);
    expect(read.status, read.stderr).toBe(0);
    expect(read.stdout).toContain(HOSTED_TOKENS_KEY);
    expect(read.stdout).toContain(SCRUBBED);
    expect(read.stdout + read.stderr).not.toContain('access-token-0123456789');
    expect(read.stdout + read.stderr).not.toContain('refresh-token-0123456789');
  });
});

describe('the HostedClient over a kept sign-in', () => {
  const Answer = z.object({ ok: z.literal(true) });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a HubError');
      },
      (error: unknown) => {
        if (!(error instanceof HubError)) throw error;
        return { code: error.code, message: error.message, detail: error.detail };
      },
    );

  it('not signed in', async () => {
    const paths = homePaths({ CAPABILITIES_HOME: home() });
    await expect(failure(openHostedClient(paths, {}, { notice: () => {} }))).resolves.toEqual({
      code: 'unauthorized',
      message: 'not signed in to a hosted hub; run `capabilities hub login`',
      detail: undefined,
    });
  });

  it('attack: a hosted.json changed to name another server never gets the tokens sent there', async () => {
    const { paths, secrets } = await signedIn(home(), 'https://hub.example.com');
    const file = readHostedFile(paths.hostedFile);
    if (!file) throw new Error('no hosted.json');
    writeHostedFile(paths.hostedFile, { ...file, url: strangerUrl });
    let sent = 0;
    const refused = await failure(
      openHostedClient(
        paths,
        {},
        {
          secrets,
          fetch: async () => {
            sent++;
            return new Response('{}');
          },
        },
      ),
    );
    expect(refused.code).toBe('unauthorized');
    expect(refused.message).toBe(
      `the sign-in kept here is not for ${strangerUrl} (it was made for https://hub.example.com), so nothing was sent; run \`capabilities hub login --url ${strangerUrl}\` to sign in there`,
    );
    expect(sent).toBe(0);
  });

  it('sends the bearer token and parses the answer with the schema', async () => {
    const { paths, secrets } = await signedIn(home(), strangerUrl);
    let seen: string | undefined;
    const client = await openHostedClient(
      paths,
      {},
      {
        secrets,
        fetch: async (input, init) => {
          seen = new Headers(init?.headers).get('authorization') ?? undefined;
          return fetch(input, init);
        },
      },
    );
    answer = () => ({ status: 200, type: 'application/json', body: '{"ok":true}' });
    await expect(client.get(HOSTED_PATHS.status, Answer)).resolves.toEqual({ ok: true });
    expect(seen).toBe('Bearer access-token-0123456789');
    expect(client.url).toBe(strangerUrl);
  });

  it('an error answer is that HubError, its hint the detail', async () => {
    const { paths, secrets } = await signedIn(home(), strangerUrl);
    const client = await openHostedClient(paths, {}, { secrets });
    answer = () => ({
      status: 409,
      type: 'application/json',
      body: JSON.stringify({ error: { code: 'conflict', message: 'the plan is stale', hint: 'plan again' } }),
    });
    await expect(failure(client.post(HOSTED_PATHS.apply, { plan: 'x' }, Answer))).resolves.toEqual({
      code: 'conflict',
      message: 'the plan is stale',
      detail: 'plan again',
    });
  });

  it('an answer that is not JSON, or not the shape asked for: not a capabilities hub', async () => {
    const { paths, secrets } = await signedIn(home(), strangerUrl);
    const client = await openHostedClient(paths, {}, { secrets });
    answer = () => ({ status: 200, type: 'text/html', body: '<h1>Welcome</h1>' });
    const html = await failure(client.get(HOSTED_PATHS.status, Answer));
    expect(html.code).toBe('unavailable');
    expect(html.message).toContain(`${strangerUrl} did not answer as a capabilities hub`);
    expect(html.message).toContain('not JSON');
    answer = () => ({ status: 200, type: 'application/json', body: '{"ok":"yes"}' });
    const shape = await failure(client.get(HOSTED_PATHS.status, Answer));
    expect(shape.code).toBe('unavailable');
    expect(shape.message).toContain('field "ok"');
  });

  it('a hub that cannot be reached', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const { paths, secrets } = await signedIn(home(), url);
    const client = await openHostedClient(paths, {}, { secrets });
    await expect(failure(client.get(HOSTED_PATHS.status, Answer))).resolves.toEqual({
      code: 'unavailable',
      message: `could not reach ${url} (ECONNREFUSED); check the address, or that the hosted hub is up`,
      detail: undefined,
    });
  });

  it('a 401 whose refresh the server does not take: sign in again', async () => {
    const { paths, secrets } = await signedIn(home(), strangerUrl);
    const client = await openHostedClient(paths, {}, { secrets });
    answer = () => ({ status: 401, type: 'application/json', body: '{"error":"invalid_token"}' });
    await expect(failure(client.get(HOSTED_PATHS.status, Answer))).resolves.toEqual({
      code: 'unauthorized',
      message: `your sign-in to ${strangerUrl} expired; run \`capabilities hub login\` again`,
      detail: undefined,
    });
  });
});

// The stand-in's answers are per test; a test that forgets to set one gets the HTML page.
afterEach(() => {
  answer = () => ({ status: 200, type: 'text/html', body: '<h1>Welcome</h1>' });
});
