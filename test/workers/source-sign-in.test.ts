/**
 * The hosted hub's sign-in routes for sources, in workerd: its client ID metadata document
 * (SEP-991) is public, its client id its own URL and its one redirect URI the hub's callback; the
 * callback and Sign in again need a sign-in to the dashboard, and Sign in again refuses a form
 * without the session's CSRF token before it reaches anything.
 */
import { describe, expect, it } from 'vitest';
import { call, ORIGIN } from './oauth-flow.ts';
import { signedIn } from './people.ts';
import { upstreamRoom } from './upstream.ts';

describe('the client ID metadata document', () => {
  it('is served without a sign-in and names the hub’s callback', async () => {
    const response = await call('/sources/oauth/client.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      client_id: `${ORIGIN}/sources/oauth/client.json`,
      client_uri: ORIGIN,
      client_name: 'capabilities hub',
      redirect_uris: [`${ORIGIN}/sources/oauth/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
});

describe('the sign-in routes', () => {
  it('the callback needs a sign-in to the dashboard', async () => {
    const response = await call('/sources/oauth/callback?state=x&code=y');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login\?next=/);
  });

  it('Sign in again without the session’s CSRF token is refused, and reaches nothing', async () => {
    const browser = await signedIn(73_001, 'cy');
    const room = upstreamRoom('csrf');
    const started = await call('/sources/new', {
      method: 'POST',
      headers: {
        cookie: browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
      },
      body: new URLSearchParams({ csrf: browser.csrf, kind: 'mcp-http', url: `${room.base}/signin/mcp` }),
    });
    expect(started.status).toBe(200);
    expect(await started.text()).toContain('Continue to');
    const forged = await call('/sources/board/sign-in', {
      method: 'POST',
      headers: {
        cookie: browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
      },
      body: new URLSearchParams({ csrf: 'not-the-token', connection: 'default' }),
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('nothing was started');
    const unknown = await call('/sources/nosuch/sign-in', {
      method: 'POST',
      headers: {
        cookie: browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
      },
      body: new URLSearchParams({ csrf: browser.csrf, connection: 'default' }),
    });
    expect(unknown.status).toBe(404);
  });
});
