/**
 * Signing in with GitHub, in workerd: the sign-in routes (worker/sign-in/routes.ts) mounted in a
 * Hono app and driven request by request, cookies carried by hand as a browser would, against the
 * GitHub stand-in (test/fixtures/github-standin.ts) that miniflare's outboundService answers at
 * https://github.test and https://api.github.test (vitest.config.mts). Holds the whole sign-in,
 * each way it must fail (cancelled, forged, replayed or foreign state, wrong PKCE, a login off
 * the allowlist, a `next` leaving the hub), sign-out behind its CSRF token, and what KV keeps.
 */
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import { ATTEMPT_COOKIE, ATTEMPT_KEY_PREFIX } from '../../worker/sign-in/attempts.ts';
import { sameOriginPath } from '../../worker/sign-in/next-path.ts';
import { signInRoutes } from '../../worker/sign-in/routes.ts';
import { readSignIn, SESSION_COOKIE, SESSION_KEY_PREFIX } from '../../worker/sign-in/sessions.ts';
import { TEST_GITHUB } from './github-settings.ts';

const hubEnv = env as unknown as HubEnv;
const HUB = 'https://hub.test';
const ana = TEST_GITHUB.users[0];

const app = new Hono<{ Bindings: HubEnv }>();
app.route('/', signInRoutes());
app.get('/', (c) => c.text('home'));

/** A browser's cookie jar, kept by hand from Set-Cookie. */
class Browser {
  readonly cookies = new Map<string, string>();

  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (attributes.some((attribute) => attribute.toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** A request to the hub from this browser; Set-Cookie is kept. */
  async hub(path: string, init: RequestInit = {}, bindings: HubEnv = hubEnv): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.cookie);
    return this.keep(await app.request(`${HUB}${path}`, { ...init, headers }, bindings));
  }
}

/** `/login?next=…` in `browser`: the GitHub authorize URL it was sent to. */
async function startAt(browser: Browser, next?: string, bindings?: HubEnv): Promise<URL> {
  const path = next === undefined ? '/login' : `/login?next=${encodeURIComponent(next)}`;
  const response = await browser.hub(path, {}, bindings);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(`${TEST_GITHUB.webUrl}/login/oauth/authorize`);
  return location;
}

/** Presses a button on the stand-in's authorize page (its form, posted directly): the callback path. */
async function pressAtGithub(authorize: URL, button: { login: string } | { cancel: true }): Promise<string> {
  const form = new URLSearchParams();
  for (const name of ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']) {
    form.set(name, authorize.searchParams.get(name) ?? '');
  }
  if ('login' in button) form.set('login', button.login);
  else form.set('cancel', '1');
  const response = await fetch(`${TEST_GITHUB.webUrl}/login/oauth/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location') ?? '');
  expect(back.origin).toBe(HUB);
  return `${back.pathname}${back.search}`;
}

/** The whole sign-in as `login` in a fresh browser: the callback's response and the browser. */
async function signIn(login: string, next?: string, bindings?: HubEnv) {
  const browser = new Browser();
  const callback = await pressAtGithub(await startAt(browser, next, bindings), { login });
  const response = await browser.hub(callback, {}, bindings);
  return { browser, response, callback };
}

const signedInAs = (browser: Browser) =>
  readSignIn(new Request(`${HUB}/`, { headers: { cookie: browser.cookie } }), hubEnv);

async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

describe('signing in with GitHub', () => {
  it('sends the browser to GitHub for identity only, with PKCE S256 and a state bound to a cookie', async () => {
    const browser = new Browser();
    const authorize = await startAt(browser, '/runs');
    const params = authorize.searchParams;
    expect(params.get('client_id')).toBe(TEST_GITHUB.clientId);
    expect(params.get('redirect_uri')).toBe(`${HUB}/login/callback`);
    expect(params.get('scope')).toBe('');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('allow_signup')).toBe('true');
    expect(browser.cookies.get(ATTEMPT_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The stand-in's page offers one button per user and Cancel.
    const page = await (await fetch(authorize)).text();
    expect(page).toContain('Authorize ana');
    expect(page).toContain('Cancel');
  });

  it('signs a person in: a session for github:<id>, the attempt cookie cleared, on to next', async () => {
    const { browser, response } = await signIn('ana', '/runs?status=awaiting_input');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/runs?status=awaiting_input');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const setCookies = response.headers.getSetCookie();
    expect(setCookies).toContain(`${ATTEMPT_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`);
    const session = setCookies.find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(session).toMatch(
      /^__Host-capabilities-session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=28800$/,
    );
    expect(browser.cookies.has(ATTEMPT_COOKIE)).toBe(false);
    const signedIn = await signedInAs(browser);
    expect(signedIn).toMatchObject({ person: `github:${ana.id}`, login: 'ana' });
    expect(signedIn?.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedIn?.sessionHash).toBe(await sha256Hex(browser.cookies.get(SESSION_COOKIE) ?? ''));
    // Already signed in: /login goes straight on.
    const again = await browser.hub('/login?next=/sources');
    expect(again.headers.get('location')).toBe('/sources');
  });

  it('says the sign-in was cancelled at GitHub, with a link to try again, and opens no session', async () => {
    const browser = new Browser();
    const callback = await pressAtGithub(await startAt(browser, '/runs'), { cancel: true });
    expect(callback).toContain('error=access_denied');
    const response = await browser.hub(callback);
    expect(response.status).toBe(403);
    const page = await response.text();
    expect(page).toContain('Sign-in cancelled');
    expect(page).toContain('href="/login?next=%2Fruns"');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a forged or missing state, and the attempt is spent', async () => {
    for (const forge of [
      (q: URLSearchParams) => q.set('state', 'forged'),
      (q: URLSearchParams) => q.delete('state'),
    ]) {
      const browser = new Browser();
      const callback = new URL(await pressAtGithub(await startAt(browser), { login: 'ana' }), HUB);
      const genuine = `${callback.pathname}${callback.search}`;
      forge(callback.searchParams);
      const response = await browser.hub(`${callback.pathname}${callback.search}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('This sign-in cannot be finished');
      expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
      // The genuine answer, after a forged one, finds nothing either: single use.
      expect((await browser.hub(genuine)).status).toBe(400);
    }
  });

  it('refuses a replayed callback, even with the attempt cookie put back', async () => {
    const browser = new Browser();
    const callback = await pressAtGithub(await startAt(browser), { login: 'ana' });
    const attempt = browser.cookies.get(ATTEMPT_COOKIE) ?? '';
    expect((await browser.hub(callback)).status).toBe(302);
    const replay = new Browser();
    replay.cookies.set(ATTEMPT_COOKIE, attempt);
    const response = await replay.hub(callback);
    expect(response.status).toBe(400);
    expect(replay.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it("refuses GitHub's answer in another browser: without the cookie, or with that browser's own attempt", async () => {
    const victim = new Browser();
    const callback = await pressAtGithub(await startAt(victim), { login: 'ana' });
    const bare = new Browser();
    expect((await bare.hub(callback)).status).toBe(400);
    const other = new Browser();
    await startAt(other);
    const response = await other.hub(callback);
    expect(response.status).toBe(400);
    expect(other.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('fails when the PKCE verifier does not match, or the code was changed', async () => {
    const browser = new Browser();
    const callback = await pressAtGithub(await startAt(browser), { login: 'ana' });
    const key = ATTEMPT_KEY_PREFIX + (await sha256Hex(browser.cookies.get(ATTEMPT_COOKIE) ?? ''));
    const stored = JSON.parse((await hubEnv.OAUTH_KV.get(key)) ?? '{}') as { verifier: string };
    await hubEnv.OAUTH_KV.put(key, JSON.stringify({ ...stored, verifier: `${stored.verifier.slice(1)}x` }));
    const response = await browser.hub(callback);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('GitHub refused the sign-in (bad_verification_code)');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);

    const second = new Browser();
    const changed = new URL(await pressAtGithub(await startAt(second), { login: 'ana' }), HUB);
    changed.searchParams.set('code', 'not-the-code');
    const refused = await second.hub(`${changed.pathname}${changed.search}`);
    expect(refused.status).toBe(400);
    expect(second.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('lets in only the logins on SIGNUP_ALLOWLIST, without case, and names no one else', async () => {
    const bindings = { ...hubEnv, SIGNUP_ALLOWLIST: 'ana, BO' };
    const refused = await signIn('mallory', '/', bindings);
    expect(refused.response.status).toBe(403);
    const page = await refused.response.text();
    expect(page).toContain('This hub is not open to you yet');
    expect(page).not.toContain('ana');
    expect(page).not.toContain('BO');
    expect(refused.browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const bo = await signIn('bo', '/', bindings);
    expect(bo.response.status).toBe(302);
    expect(await signedInAs(bo.browser)).toMatchObject({ person: 'github:4000002', login: 'bo' });
  });

  it.each([
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    'evil',
    '',
    '/.//evil.example',
    '/%2e%2e//evil.example/x',
    '/a/..//evil.example',
  ])('goes to / after signing in when next is %j', async (next) => {
    const { response } = await signIn('ana', next);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
  });

  it('keeps a next that is a path on the hub', () => {
    expect(sameOriginPath('/runs/run_1?tab=log#end')).toBe('/runs/run_1?tab=log#end');
    expect(sameOriginPath('/authorize?client_id=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb')).toBe(
      '/authorize?client_id=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb',
    );
    expect(sameOriginPath(undefined)).toBe('/');
    expect(sameOriginPath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('shows what GitHub refused, and never the client secret, the code or a token', async () => {
    const wrongSecret = 'wrong-secret-that-must-not-show-0123456789';
    const bindings = { ...hubEnv, GITHUB_CLIENT_SECRET: wrongSecret };
    const { browser, response, callback } = await signIn('ana', '/', bindings);
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('GitHub refused the sign-in (incorrect_client_credentials)');
    const code = new URL(callback, HUB).searchParams.get('code') ?? '';
    for (const secret of [wrongSecret, TEST_GITHUB.clientSecret, code]) expect(page).not.toContain(secret);
    expect(page).not.toMatch(/gho_/);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('says which settings to set when the GitHub app is missing, and sends no one to GitHub', async () => {
    const bindings = { ...hubEnv, GITHUB_CLIENT_ID: undefined, GITHUB_CLIENT_SECRET: '' };
    const response = await new Browser().hub('/login', {}, bindings);
    expect(response.status).toBe(500);
    const page = await response.text();
    expect(page).toContain('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET');
    expect(page).toContain('.dev.vars');
    expect(page).toContain('wrangler secret put');
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('signing out', () => {
  it('refuses without a session, and without the CSRF token or with a wrong one', async () => {
    const stranger = await new Browser().hub('/logout', {
      method: 'POST',
      body: new URLSearchParams({ csrf: 'x' }),
    });
    expect(stranger.status).toBe(401);
    const { browser } = await signIn('ana');
    const signedIn = await signedInAs(browser);
    for (const body of [new URLSearchParams(), new URLSearchParams({ csrf: 'wrong' })]) {
      const response = await browser.hub('/logout', { method: 'POST', body });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('Sign-out refused');
    }
    // Another session's token is no better.
    const other = await signedInAs((await signIn('ana')).browser);
    expect(other?.csrf).not.toBe(signedIn?.csrf);
    const crossed = await browser.hub('/logout', {
      method: 'POST',
      body: new URLSearchParams({ csrf: other?.csrf ?? '' }),
    });
    expect(crossed.status).toBe(403);
    expect(await signedInAs(browser)).toMatchObject({ person: `github:${ana.id}` });
  });

  it('ends the session with its CSRF token: the cookie expires and the session is gone from KV', async () => {
    const { browser } = await signIn('ana');
    const signedIn = await signedInAs(browser);
    const cookie = browser.cookie;
    const response = await browser.hub('/logout', {
      method: 'POST',
      body: new URLSearchParams({ csrf: signedIn?.csrf ?? '' }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.getSetCookie()).toContain(
      `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`,
    );
    expect(await hubEnv.OAUTH_KV.get(SESSION_KEY_PREFIX + (signedIn?.sessionHash ?? ''))).toBeNull();
    // The old cookie, kept by a careless browser, names nothing any more.
    expect(await readSignIn(new Request(`${HUB}/`, { headers: { cookie } }), hubEnv)).toBeNull();
  });
});

describe('what KV keeps', () => {
  it('holds hashes for keys, and no session id, GitHub token or client secret anywhere', async () => {
    const { browser } = await signIn('ana');
    const pending = new Browser();
    await startAt(pending);
    const sessionId = browser.cookies.get(SESSION_COOKIE) ?? '';
    const attemptId = pending.cookies.get(ATTEMPT_COOKIE) ?? '';
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { keys } = await hubEnv.OAUTH_KV.list();
    const ours = keys.filter((key) => key.name.startsWith('signin-'));
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(ours.map((key) => key.name)).toContain(SESSION_KEY_PREFIX + (await sha256Hex(sessionId)));
    expect(ours.map((key) => key.name)).toContain(ATTEMPT_KEY_PREFIX + (await sha256Hex(attemptId)));
    for (const { name } of ours) {
      expect(name).toMatch(/^signin-(session|attempt):[0-9a-f]{64}$/);
      expect(name).not.toContain(sessionId);
      const value = (await hubEnv.OAUTH_KV.get(name)) ?? '';
      for (const secret of [sessionId, attemptId, TEST_GITHUB.clientSecret])
        expect(value).not.toContain(secret);
      expect(value).not.toMatch(/gho_/);
    }
    const session = JSON.parse(
      (await hubEnv.OAUTH_KV.get(SESSION_KEY_PREFIX + (await sha256Hex(sessionId)))) ?? '',
    );
    expect(Object.keys(session).sort()).toEqual(['createdAt', 'login', 'person']);
    expect(session.person).toBe(`github:${ana.id}`);
  });
});
