/**
 * The hosted hub as an OAuth 2.1 authorization server for MCP clients, in workerd through the
 * Worker's own fetch: discovery (RFC 9728, RFC 8414), dynamic registration (RFC 7591), the
 * consent page for a signed-in person, the code exchange with PKCE S256, `/mcp` serving the hub
 * the grant names, and every bad input the issue lists, each the error the OAuth and MCP specs
 * name. The sign-in session is made directly (the GitHub flow has its own test).
 */
import { env } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-object.ts';
import { createSession } from '../../worker/sign-in/sessions.ts';
import { worker } from './worker-client.ts';

const ORIGIN = 'https://hub.example';
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = 'https://client.example/callback';
const hubEnv = env as unknown as HubEnv;

/** A request to the Worker as a browser or client sends it; redirects are the test's to follow. */
const call = (path: string, init: RequestInit = {}) =>
  worker.fetch(new Request(`${ORIGIN}${path}`, { ...init, redirect: 'manual' }));

/** `name=value` pairs of every Set-Cookie in `response`, for the next request. */
function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
}

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

async function register(name = 'Test Agent', redirect = REDIRECT): Promise<string> {
  const response = await call('/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

async function signIn(id: number, login: string): Promise<string> {
  const { cookie } = await createSession(hubEnv, { id, login });
  return cookie.split(';')[0] ?? '';
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope: 'hub',
    resource: RESOURCE,
    ...extra,
  });
  return `/authorize?${query}`;
}

/** The consent page for `clientId`, shown to the person signed in with `session`, then their decision. */
async function consent(clientId: string, session: string, challenge: string, decision: 'approve' | 'deny') {
  const page = await call(authorizeUrl(clientId, challenge), { headers: { cookie: session } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error(`no consent handle in ${html}`);
  const cookie = [session, ...cookiesOf(page)].join('; ');
  const answer = await call('/authorize', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ handle, decision }),
  });
  return { html, answer };
}

async function exchange(clientId: string, code: string, verifier: string) {
  return call('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE,
    }),
  });
}

/** A person's access token for a new client, through the whole flow. */
async function tokenFor(
  id: number,
  login: string,
): Promise<{ access: string; refresh: string; clientId: string }> {
  const clientId = await register();
  const { verifier, challenge } = await pkce();
  const { answer } = await consent(clientId, await signIn(id, login), challenge, 'approve');
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe('state-123');
  const code = location.searchParams.get('code') ?? '';
  const tokens = await exchange(clientId, code, verifier);
  expect(tokens.status).toBe(200);
  const body = (await tokens.json()) as { access_token: string; refresh_token: string; token_type: string };
  expect(body.token_type.toLowerCase()).toBe('bearer');
  return { access: body.access_token, refresh: body.refresh_token, clientId };
}

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(RESOURCE), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: (input, init) => worker.fetch(new Request(input, init)),
    }),
  );
  return client;
}

const envelope = (result: unknown) =>
  (result as { structuredContent?: Record<string, unknown> }).structuredContent;

describe('OAuth for MCP clients', () => {
  it('publishes protected-resource and authorization-server metadata, PKCE S256 only', async () => {
    const resource = (await (await call('/.well-known/oauth-protected-resource/mcp')).json()) as Record<
      string,
      unknown
    >;
    expect(resource).toMatchObject({ resource: RESOURCE, authorization_servers: [ORIGIN] });
    const server = (await (await call('/.well-known/oauth-authorization-server')).json()) as Record<
      string,
      unknown
    >;
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/authorize`,
      token_endpoint: `${ORIGIN}/token`,
      registration_endpoint: `${ORIGIN}/register`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('answers /mcp without a token, or with a malformed one, 401 naming the resource metadata', async () => {
    for (const authorization of [undefined, 'Bearer nonsense', 'Bearer a:b:c']) {
      const response = await call('/mcp', {
        method: 'POST',
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(
        `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
      );
    }
  });

  it('sends a person who is not signed in to sign in first, and back to the same request after', async () => {
    const clientId = await register();
    const { challenge } = await pkce();
    const url = authorizeUrl(clientId, challenge);
    const response = await call(url);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/login?next=${encodeURIComponent(url)}`);
  });

  it('registers, asks the signed-in person, exchanges the code with PKCE, and serves that person’s hub', async () => {
    const clientId = await register('Nice Agent');
    const { verifier, challenge } = await pkce();
    const session = await signIn(1001, 'ana');
    const { html, answer } = await consent(clientId, session, challenge, 'approve');
    expect(html).toContain('Nice Agent');
    expect(html).toContain('client.example');
    expect(html).toContain('ana');
    expect(answer.status).toBe(302);
    const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const tokens = (await (await exchange(clientId, code, verifier)).json()) as { access_token: string };
    const client = await mcpClient(tokens.access_token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['describe', 'execute', 'search']);
      const result = await client.callTool({ name: 'execute', arguments: { code: 'return 6 * 7' } });
      expect(envelope(result)).toMatchObject({ status: 'completed', result: 42 });
    } finally {
      await client.close();
    }
    // The code works once.
    const replay = await exchange(clientId, code, verifier);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('keeps people apart: B cannot resume A’s run, and their hubs are two', async () => {
    const a = await tokenFor(2001, 'ana');
    const b = await tokenFor(2002, 'bo');
    const clientA = await mcpClient(a.access);
    const clientB = await mcpClient(b.access);
    try {
      const ran = envelope(await clientA.callTool({ name: 'execute', arguments: { code: 'return "mine"' } }));
      const runId = String(ran?.runId);
      const stolen = await clientB.callTool({ name: 'execute', arguments: { resume: runId } });
      expect(JSON.stringify(stolen)).toMatch(/not_found|no run/i);
      expect(JSON.stringify(stolen)).not.toContain('mine');
    } finally {
      await clientA.close();
      await clientB.close();
    }
    const idA = hubEnv.HUB.idFromName('github:2001').toString();
    const idB = hubEnv.HUB.idFromName('github:2002').toString();
    expect(idA).not.toBe(idB);
  });

  it('refuses a wrong PKCE verifier, an unregistered redirect URI, and a denial grants nothing', async () => {
    const clientId = await register();
    const { challenge } = await pkce();
    const session = await signIn(3001, 'cy');
    const { answer } = await consent(clientId, session, challenge, 'approve');
    const code = new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const wrong = await exchange(clientId, code, (await pkce()).verifier);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');

    // An unregistered redirect URI is shown on the hub's page, never redirected to.
    const stray = await call(authorizeUrl(clientId, challenge, { redirect_uri: 'https://evil.example/cb' }), {
      headers: { cookie: session },
    });
    expect(stray.status).toBe(400);
    expect(stray.headers.get('location')).toBeNull();

    const denied = await consent(clientId, session, challenge, 'deny');
    expect(denied.answer.status).toBe(302);
    const location = new URL(denied.answer.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a consent handle works once, and not without the browser’s cookie', async () => {
    const clientId = await register();
    const { challenge } = await pkce();
    const session = await signIn(4001, 'di');
    const page = await call(authorizeUrl(clientId, challenge), { headers: { cookie: session } });
    const handle = /name="handle" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    // Another browser (the person's session, but not this page's binding cookie).
    const forged = await call('/authorize', {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ handle, decision: 'approve' }),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('keeps the two ways in apart: a session cookie does not open /mcp, a token does not open a page', async () => {
    const session = await signIn(5001, 'ed');
    const cookieOnly = await call('/mcp', { method: 'POST', headers: { cookie: session } });
    expect(cookieOnly.status).toBe(401);
    const { access } = await tokenFor(5001, 'ed');
    const page = await call('/', { headers: { authorization: `Bearer ${access}` } });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/login\?next=/);
  });

  it('a revoked token stops working at once, and a refresh rotates', async () => {
    const { access, refresh, clientId } = await tokenFor(6001, 'fi');
    const refreshed = await call('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: clientId }),
    });
    expect(refreshed.status).toBe(200);
    const rotated = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(rotated.refresh_token).not.toBe(refresh);
    const revoke = await call('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: rotated.access_token, client_id: clientId }),
    });
    expect(revoke.status).toBe(200);
    const after = await call('/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${rotated.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(after.status).toBe(401);
    expect(access).not.toBe(rotated.access_token);
  });
});
