/**
 * GitHub's web application flow, as the hosted hub signs people in with it: the authorize URL
 * (identity only: an empty scope, PKCE S256), the code exchange and the signed-in user. GitHub's
 * places are settings (GITHUB_URL for the web flow, GITHUB_API_URL for the API), so GitHub
 * Enterprise or a test's stand-in answers instead. Only fetch, so it runs wherever fetch does.
 *
 * Every failure is a HubError whose message says what to do next and names nothing secret: the
 * client secret, the code and GitHub's access token never reach a message, a log or a page.
 */
import { HubError } from '../../engine/errors.ts';

/** The settings this module reads, as HubEnv names them. */
export interface GithubEnv {
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  GITHUB_URL?: string;
  GITHUB_API_URL?: string;
}

/** The GitHub OAuth app and GitHub's two places, with defaults applied. */
export interface GithubApp {
  clientId: string;
  clientSecret: string;
  /** The web flow's origin (authorize, access_token), without a trailing slash. */
  webUrl: string;
  /** The REST API's origin (`/user`), without a trailing slash. */
  apiUrl: string;
}

/** A person as GitHub knows them: the numeric id is stable, the login can change. */
export interface GithubUser {
  id: number;
  login: string;
}

export const DEFAULT_GITHUB_URL = 'https://github.com';
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
const USER_AGENT = 'capabilities-hub';

/** The app settings, or undefined with the names of the variables to set. */
export function githubApp(env: GithubEnv): { app: GithubApp } | { missing: string[] } {
  const missing = (['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'] as const).filter((name) => !env[name]);
  if (missing.length > 0 || !env.GITHUB_CLIENT_ID || !env.GITHUB_CLIENT_SECRET) return { missing };
  return {
    app: {
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      webUrl: trimSlash(env.GITHUB_URL || DEFAULT_GITHUB_URL),
      apiUrl: trimSlash(env.GITHUB_API_URL || DEFAULT_GITHUB_API_URL),
    },
  };
}

/** Where the browser goes to sign in: identity only (empty scope), PKCE S256, sign-up allowed. */
export function authorizeUrl(
  app: GithubApp,
  options: { redirectUri: string; state: string; codeChallenge: string },
): string {
  const url = new URL(`${app.webUrl}/login/oauth/authorize`);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  url.searchParams.set('scope', '');
  url.searchParams.set('code_challenge', options.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('allow_signup', 'true');
  return url.toString();
}

/**
 * Exchanges the code GitHub sent back for an access token. GitHub answers 200 with `{error}`
 * when the code is wrong, used or expired, or the verifier does not match.
 */
export async function exchangeCode(
  app: GithubApp,
  options: { code: string; redirectUri: string; codeVerifier: string },
): Promise<string> {
  const response = await reach(`${app.webUrl}/login/oauth/access_token`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': USER_AGENT,
    },
    body: new URLSearchParams({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      code: options.code,
      redirect_uri: options.redirectUri,
      code_verifier: options.codeVerifier,
    }),
  });
  const body = await jsonOf(response, 'the access-token endpoint');
  if (typeof body.error === 'string') {
    throw new HubError('denied', `GitHub refused the sign-in (${safeWord(body.error)}); sign in again.`);
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new HubError(
      'unavailable',
      'GitHub answered the code exchange without an access token; sign in again.',
    );
  }
  return body.access_token;
}

/** The signed-in user behind an access token: GitHub's numeric id and current login. */
export async function fetchUser(app: GithubApp, accessToken: string): Promise<GithubUser> {
  const response = await reach(`${app.apiUrl}/user`, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/vnd.github+json',
      'user-agent': USER_AGENT,
    },
  });
  if (response.status === 401) {
    throw new HubError('denied', 'GitHub did not accept the sign-in it had just granted; sign in again.');
  }
  const body = await jsonOf(response, 'the /user endpoint');
  if (typeof body.id !== 'number' || !Number.isSafeInteger(body.id) || typeof body.login !== 'string') {
    throw new HubError(
      'unavailable',
      'GitHub answered /user without a numeric id and a login; sign in again later.',
    );
  }
  return { id: body.id, login: body.login };
}

/** fetch, with an unreachable GitHub said as such (the URL names no secret: it is a setting). */
async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual' });
  } catch (cause) {
    throw new HubError(
      'unavailable',
      `GitHub could not be reached at ${new URL(url).origin}; check GITHUB_URL and GITHUB_API_URL, or try again later.`,
      { cause },
    );
  }
}

/** A 2xx JSON object, or a HubError naming the endpoint and status (never the body). */
async function jsonOf(response: Response, endpoint: string): Promise<Record<string, unknown>> {
  if (!response.ok) {
    throw new HubError(
      'unavailable',
      `GitHub's ${endpoint} answered ${response.status}; try signing in again later.`,
    );
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HubError(
      'unavailable',
      `GitHub's ${endpoint} did not answer JSON; check GITHUB_URL and GITHUB_API_URL.`,
    );
  }
  return body as Record<string, unknown>;
}

/** GitHub's error code, kept to its own alphabet so nothing else rides along into a page. */
function safeWord(text: string): string {
  return text.replace(/[^a-z0-9_]/gi, '').slice(0, 64) || 'error';
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
