/**
 * Revoking a source's OAuth grant (local/oauth/revoke-grant.ts over revoke-token.ts): the refresh
 * token goes to the revocation endpoint recorded at sign-in, and a server that never answers is
 * given up on after the timeout, reported as not revoked with why, so no command hangs on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { revokeGrant } from '../../local/oauth/revoke-grant.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A revocation endpoint on loopback that does `answer` with each request (and its form). */
async function endpoint(answer: (form: URLSearchParams, response: ServerResponse) => void): Promise<string> {
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => answer(new URLSearchParams(body), response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/revoke`;
}

const grant = (revocation_endpoint: string): OAuthGrant => ({
  access_token: 'at-0123456789abcdef',
  token_type: 'Bearer',
  refresh_token: 'rt-0123456789abcdef',
  authorization_server: 'http://127.0.0.1/',
  token_endpoint: 'http://127.0.0.1/token',
  revocation_endpoint,
  client_id: 'client-1',
});

describe('revokeGrant', () => {
  it('sends the refresh token to the revocation endpoint, and is done once it answers 200', async () => {
    const forms: URLSearchParams[] = [];
    const url = await endpoint((form, response) => {
      forms.push(form);
      response.writeHead(200).end();
    });
    expect(await revokeGrant(grant(url))).toBeUndefined();
    expect(Object.fromEntries(forms[0] ?? [])).toEqual({
      token: 'rt-0123456789abcdef',
      token_type_hint: 'refresh_token',
      client_id: 'client-1',
    });
  });

  it('a revocation endpoint that never answers is given up on: not revoked, saying why', async () => {
    const url = await endpoint(() => {});
    expect(await revokeGrant(grant(url), 200)).toBe('its revocation endpoint did not answer within 0.2 s');
  });

  it('an endpoint that refuses, or a grant with no endpoint, is not revoked, saying why', async () => {
    const url = await endpoint((_form, response) => response.writeHead(503).end());
    expect(await revokeGrant(grant(url))).toBe('its revocation endpoint answered 503');
    const { revocation_endpoint: _none, ...without } = grant(url);
    expect(await revokeGrant(without)).toBe('its authorization server offers no revocation endpoint');
  });
});
