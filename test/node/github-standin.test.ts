/**
 * The GitHub stand-in itself, served over real HTTP on loopback as a `wrangler dev` end-to-end
 * test will use it (test/fixtures/github-standin-server.ts): it must refuse what GitHub refuses,
 * or a sign-in test against it would prove nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGithubStandIn, startGithubStandIn } from '../fixtures/github-standin-server.ts';

const CLIENT = { clientId: 'Iv1.node-standin', clientSecret: 'node-standin-secret' };
const REDIRECT = 'http://127.0.0.1:8787/login/callback';
let github: RunningGithubStandIn;

beforeAll(async () => {
  github = await startGithubStandIn({ ...CLIENT, users: [{ id: 7, login: 'ana', name: 'Ana' }] });
});
afterAll(() => github.close());

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Presses "Authorize ana" (or Cancel): the redirect back, as a URL. */
async function press(fields: Record<string, string>): Promise<URL> {
  const response = await fetch(`${github.url}/login/oauth/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: CLIENT.clientId, redirect_uri: REDIRECT, state: 's1', ...fields }),
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '');
}

async function exchange(fields: Record<string, string>): Promise<Record<string, string>> {
  const response = await fetch(`${github.url}/login/oauth/access_token`, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: new URLSearchParams({
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      redirect_uri: REDIRECT,
      ...fields,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, string>;
}

describe('the GitHub stand-in', () => {
  it('listens on 127.0.0.1 with a port the system chose', () => {
    expect(github.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('renders the authorize page for its client only, and only with a redirect_uri', async () => {
    const page = (query: string) => fetch(`${github.url}/login/oauth/authorize?${query}`);
    const ok = await page(
      `client_id=${CLIENT.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s1`,
    );
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain('Authorize ana');
    expect(html).toContain('Cancel');
    expect((await page(`client_id=other&redirect_uri=${encodeURIComponent(REDIRECT)}`)).status).toBe(404);
    expect((await page(`client_id=${CLIENT.clientId}`)).status).toBe(400);
  });

  it('sends Cancel back as access_denied with the state', async () => {
    const back = await press({ cancel: '1' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('exchanges a code once, with the verifier, for a token /user accepts', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const code =
      (
        await press({ login: 'ana', code_challenge: challengeOf(verifier), code_challenge_method: 'S256' })
      ).searchParams.get('code') ?? '';
    const token = await exchange({ code, code_verifier: verifier });
    expect(token).toMatchObject({ token_type: 'bearer', scope: '' });
    expect(token.access_token).toMatch(/^gho_/);
    const user = await fetch(`${github.url}/user`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(await user.json()).toEqual({ id: 7, login: 'ana', name: 'Ana' });
    expect(await exchange({ code, code_verifier: verifier })).toMatchObject({
      error: 'bad_verification_code',
    });
  });

  it('refuses a wrong verifier, another redirect_uri, a wrong secret and a missing token', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const fresh = async () =>
      (
        await press({ login: 'ana', code_challenge: challengeOf(verifier), code_challenge_method: 'S256' })
      ).searchParams.get('code') ?? '';
    expect(await exchange({ code: await fresh(), code_verifier: `${verifier}x` })).toMatchObject({
      error: 'bad_verification_code',
    });
    expect(await exchange({ code: await fresh(), code_verifier: '' })).toMatchObject({
      error: 'bad_verification_code',
    });
    expect(
      await exchange({
        code: await fresh(),
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:1/elsewhere',
      }),
    ).toMatchObject({ error: 'redirect_uri_mismatch' });
    expect(
      await exchange({ code: await fresh(), code_verifier: verifier, client_secret: 'wrong' }),
    ).toMatchObject({
      error: 'incorrect_client_credentials',
    });
    expect((await fetch(`${github.url}/user`)).status).toBe(401);
    expect(
      (await fetch(`${github.url}/user`, { headers: { authorization: 'Bearer gho_nope' } })).status,
    ).toBe(401);
  });
});
