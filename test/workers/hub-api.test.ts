/**
 * The hosted hub's management API (worker/hub-api.ts) and the scope that opens it, through the
 * Worker's own fetch in workerd: the consent grants `hub:configure` only to a client that asks for
 * it and says so on the page; the API refuses no token (401), a token without the scope and the
 * self-hosting HUB_TOKEN (403, saying what to do), and answers `hub status` for a person's token
 * with the scope, in JSON errors otherwise.
 */
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_FORMAT, HOSTED_PATHS } from '../../engine/contracts/configuration.ts';
import { MAX_PUSH_BYTES } from '../../worker/hub-api.ts';
import { CLI_REDIRECT, call, consent, pkce, register, signIn, tokenFor } from './oauth-flow.ts';
import { waitingRun } from './people.ts';
import { WORKERS_TEST_TOKEN } from './token.ts';

const CONFIGURE = 'hub hub:configure';

/** A call to the API with `token` (none when undefined). */
function api(path: string, token: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return call(path, { ...init, headers });
}

interface ApiError {
  error: { code: string; message: string; hint?: string };
}

const paths = [
  ['POST', HOSTED_PATHS.plan],
  ['POST', HOSTED_PATHS.apply],
  ['GET', HOSTED_PATHS.status],
] as const;

const bodyOf = (method: string) => (method === 'POST' ? '{}' : undefined);

/** Hono's JSX escapes apostrophes; the page as a person reads it. */
const readable = (html: string) => html.replaceAll('&#39;', "'");

describe('the hub:configure scope', () => {
  it('is granted only when the client asks for it, and the consent page says so plainly', async () => {
    const session = await signIn(7001, 'gus');
    const { challenge } = await pkce();
    const agent = await consent(await register('An Agent'), session, challenge, 'deny');
    expect(readable(agent.html)).not.toContain("change your hub's configuration");
    const cli = await consent(
      await register('capabilities CLI', CLI_REDIRECT),
      session,
      challenge,
      'deny',
      CONFIGURE,
      CLI_REDIRECT,
    );
    expect(readable(cli.html)).toContain(
      "change your hub's configuration: its sources, policies and credentials",
    );
    // A web app (its redirect is not this computer) that asks for it is neither shown nor granted it.
    const web = await consent(await register('capabilities CLI'), session, challenge, 'deny', CONFIGURE);
    expect(readable(web.html)).not.toContain("change your hub's configuration");
    expect((await tokenFor(7001, 'gus', CONFIGURE)).scope.split(' ')).toEqual(['hub']);

    expect((await tokenFor(7001, 'gus')).scope.split(' ')).toEqual(['hub']);
    expect((await tokenFor(7001, 'gus', CONFIGURE, CLI_REDIRECT)).scope.split(' ').sort()).toEqual([
      'hub',
      'hub:configure',
    ]);
    // Asked alone, it still comes with `hub`; a scope the hub does not know is not granted.
    expect((await tokenFor(7001, 'gus', 'hub:configure', CLI_REDIRECT)).scope.split(' ').sort()).toEqual([
      'hub',
      'hub:configure',
    ]);
    expect((await tokenFor(7001, 'gus', 'hub admin')).scope.split(' ')).toEqual(['hub']);
  });
});

describe('the management API refuses', () => {
  it('a request without a token (401, with the challenge that names the resource metadata)', async () => {
    for (const [method, path] of paths) {
      const response = await api(path, undefined, { method, body: bodyOf(method) });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata');
    }
  });

  it('an MCP token without hub:configure (403, naming `capabilities hub login`)', async () => {
    const { access } = await tokenFor(7101, 'hal');
    for (const [method, path] of paths) {
      const response = await api(path, access, { method, body: bodyOf(method) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('insufficient_scope');
      const { error } = (await response.json()) as ApiError;
      expect(error.code).toBe('denied');
      expect(error.message).toContain('hub:configure');
      expect(error.hint).toContain('capabilities hub login');
    }
  });

  it('the self-hosting HUB_TOKEN, which has no person behind it (403)', async () => {
    for (const [method, path] of paths) {
      const response = await api(path, WORKERS_TEST_TOKEN, { method, body: bodyOf(method) });
      expect(response.status, `${method} ${path}`).toBe(403);
      const { error } = (await response.json()) as ApiError;
      expect(error.code).toBe('denied');
      expect(error.message).toContain('HUB_TOKEN');
      expect(error.hint).toContain('capabilities hub login');
    }
  });

  it('a body that is not JSON (400), one over the limit (413), a path it does not have (404)', async () => {
    const { access } = await tokenFor(7201, 'ida', CONFIGURE, CLI_REDIRECT);
    const notJson = await api(HOSTED_PATHS.plan, access, { method: 'POST', body: 'not json' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as ApiError).error.code).toBe('invalid_input');

    const huge = await api(HOSTED_PATHS.plan, access, {
      method: 'POST',
      body: JSON.stringify({ padding: 'x'.repeat(MAX_PUSH_BYTES) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as ApiError).error.code).toBe('limit');

    const elsewhere = await api('/mcp/hub/delete-everything', access, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as ApiError).error.hint).toContain(HOSTED_PATHS.plan);
    const wrongMethod = await api(HOSTED_PATHS.status, access, { method: 'POST', body: '{}' });
    expect(wrongMethod.status).toBe(404);
  });
});

describe('GET /mcp/hub/status', () => {
  it('answers the signed-in person’s own hub: its id, who, and the runs waiting for them', async () => {
    const { access } = await tokenFor(7301, 'jo', CONFIGURE, CLI_REDIRECT);
    await waitingRun('github:7301', 'run_status_1', 'board.post');
    const response = await api(HOSTED_PATHS.status, access, { method: 'GET' });
    expect(response.status).toBe(200);
    const status = (await response.json()) as {
      format: number;
      hubId: string;
      login?: string;
      waiting: { runId: string; address: string; summary: string }[];
    };
    expect(status.format).toBe(CONFIGURATION_FORMAT);
    expect(status.hubId).toMatch(/^hub_/);
    expect(status.login).toBe('jo');
    expect(status.waiting).toEqual([
      expect.objectContaining({ runId: 'run_status_1', address: 'board.post', summary: 'Call board.post.' }),
    ]);

    // Another person sees their own hub, not this one's runs.
    const other = await tokenFor(7302, 'kai', CONFIGURE, CLI_REDIRECT);
    const theirs = (await (await api(HOSTED_PATHS.status, other.access, { method: 'GET' })).json()) as {
      hubId: string;
      waiting: unknown[];
    };
    expect(theirs.hubId).not.toBe(status.hubId);
    expect(theirs.waiting).toEqual([]);
  });
});
