/**
 * The hosted hub's client ID metadata document (SEP-991), which names the hub as an OAuth client
 * by its URL when it signs in to a source: public (no sign-in), its client id its own URL, its one
 * redirect URI the hub's callback.
 */
import { describe, expect, it } from 'vitest';
import { call, ORIGIN } from './oauth-flow.ts';

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

  it('the callback itself needs a sign-in', async () => {
    const response = await call('/sources/oauth/callback?state=x&code=y');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/login\?next=/);
  });
});
