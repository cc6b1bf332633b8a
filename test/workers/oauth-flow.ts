/**
 * The OAuth flow as an MCP client and a person go through it, against the Worker's own fetch in
 * workerd: register a client (RFC 7591), sign a person in (a session made directly; the GitHub
 * flow has its own test), show the consent page and decide, exchange the code with PKCE, and an
 * official SDK client on /mcp with the token. Shared by the OAuth and I5 tenant tests (test/invariants/).
 */
import { env } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import { createSession } from '../../worker/sign-in/sessions.ts';
import { worker } from './worker-client.ts';

export const ORIGIN = 'https://hub.example';
export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT = 'https://client.example/callback';
/** Where a client on the person's computer (the CLI's `hub login`) is sent back: a loopback address. */
export const CLI_REDIRECT = 'http://127.0.0.1:48123/callback';
export const hubEnv = env as unknown as HubEnv;

/** A request to the Worker as a browser or client sends it; redirects are the test's to follow. */
export const call = (path: string, init: RequestInit = {}) =>
  worker.fetch(new Request(`${ORIGIN}${path}`, { ...init, redirect: 'manual' }));

/** `name=value` pairs of every Set-Cookie in `response`, for the next request. */
export function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
}

export const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export async function register(name = 'Test Agent', redirect = REDIRECT): Promise<string> {
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

export async function signIn(id: number, login: string): Promise<string> {
  const { cookie } = await createSession(hubEnv, { id, login });
  return cookie.split(';')[0] ?? '';
}

export function authorizeUrl(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
): string {
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
export async function consent(
  clientId: string,
  session: string,
  challenge: string,
  decision: 'approve' | 'deny',
  scope = 'hub',
  redirect = REDIRECT,
) {
  const page = await call(authorizeUrl(clientId, challenge, { scope, redirect_uri: redirect }), {
    headers: { cookie: session },
  });
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

export async function exchange(clientId: string, code: string, verifier: string, redirect = REDIRECT) {
  return call('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE,
    }),
  });
}

/** A person's access token for a new client at `redirect` asking for `scope`, through the whole flow. */
export async function tokenFor(
  id: number,
  login: string,
  scope = 'hub',
  redirect = REDIRECT,
): Promise<{ access: string; refresh: string; clientId: string; scope: string }> {
  const clientId = await register('Test Agent', redirect);
  const { verifier, challenge } = await pkce();
  const { answer } = await consent(clientId, await signIn(id, login), challenge, 'approve', scope, redirect);
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe(redirect);
  expect(location.searchParams.get('state')).toBe('state-123');
  const code = location.searchParams.get('code') ?? '';
  const tokens = await exchange(clientId, code, verifier, redirect);
  expect(tokens.status).toBe(200);
  const body = (await tokens.json()) as {
    access_token: string;
    refresh_token: string;
    token_type: string;
    scope: string;
  };
  expect(body.token_type.toLowerCase()).toBe('bearer');
  return { access: body.access_token, refresh: body.refresh_token, clientId, scope: body.scope };
}

/** What else a client's requests carry: another URL for /mcp (a query), more headers. */
export interface ClientExtras {
  url?: string;
  headers?: Record<string, string>;
}

/** An official SDK client on /mcp with `token` (and whatever `extras` adds to every request). */
export async function mcpClient(token: string, extras: ClientExtras = {}): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(extras.url ?? RESOURCE), {
      requestInit: { headers: { ...extras.headers, authorization: `Bearer ${token}` } },
      fetch: (input, init) => worker.fetch(new Request(input, init)),
    }),
  );
  return client;
}

export const envelope = (result: unknown) =>
  (result as { structuredContent?: Record<string, unknown> }).structuredContent;
