/**
 * The hosted hub as an OAuth 2.1 authorization server for MCP clients, in workerd through the
 * Worker's own fetch: discovery (RFC 9728, RFC 8414), dynamic registration (RFC 7591), the
 * consent page for a signed-in person, the code exchange with PKCE S256, `/mcp` serving the hub
 * the grant names, and every bad input the issue lists, each the error the OAuth and MCP specs
 * name. The sign-in session is made directly (the GitHub flow has its own test).
 */
import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  call,
  consent,
  envelope,
  exchange,
  hubEnv,
  mcpClient,
  ORIGIN,
  pkce,
  RESOURCE,
  register,
  signIn,
  tokenFor,
} from './oauth-flow.ts';

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

describe('the sign-up allowlist', () => {
  it('holds at every token: a login taken off it gets invalid_grant at its next exchange', async () => {
    const { oauthOptions } = await import('../../worker/oauth.ts');
    const { GrantType, OAuthError } = await import('@cloudflare/workers-oauth-provider');
    const handlers = { api: { fetch: async () => new Response() }, pages: {} };
    const callback = oauthOptions(ORIGIN, handlers).tokenExchangeCallback;
    if (!callback) throw new Error('the provider has no token exchange callback');
    const exchangeFor = (login: string, allowlist: string) =>
      callback({
        grantType: GrantType.REFRESH_TOKEN,
        clientId: 'c',
        subjectClientId: 'c',
        userId: 'github-1',
        grantId: 'g',
        scope: ['hub'],
        requestedScope: ['hub'],
        resource: RESOURCE,
        props: { hub: 'github:1', login },
        env: { ...hubEnv, SIGNUP_ALLOWLIST: allowlist },
      });
    expect(() => exchangeFor('mallory', 'ana,bo')).toThrow(OAuthError);
    expect(exchangeFor('Ana', 'ana,bo')).toBeUndefined();
    expect(exchangeFor('anyone', '')).toBeUndefined();
  });
});
