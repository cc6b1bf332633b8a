/**
 * Revoking an OAuth connection's grant where it was issued (RFC 7009), when the hub lets go of
 * it: the person signs the connection in again (the former grant would linger otherwise), or
 * removes the source. The refresh token is revoked (it carries the grant, access tokens and all),
 * else the access token; only to the revocation endpoint the authorization server named at
 * sign-in (revoke-token.ts, which gives up on a server that does not answer). The hub forgets the
 * grant whatever the server says; the caller tells the person when it could not be revoked.
 */

import { type OAuthGrant, parseGrant } from '../../engine/secrets/oauth-grant.ts';
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../home.ts';
import { openSecretStore } from '../secret-store.ts';
import { revokeToken } from './revoke-token.ts';

/** What the person is told when a grant could not be revoked. */
export const notRevoked = (what: string, why: string): string =>
  `Could not revoke ${what} where it was issued (${why}); it stays valid there until it expires, or until you revoke it on the service's settings page.`;

/** Undefined once revoked; else why not, in a few words (`timeoutMs`: how long the server has to answer). */
export async function revokeGrant(grant: OAuthGrant, timeoutMs?: number): Promise<string | undefined> {
  if (!grant.revocation_endpoint) return 'its authorization server offers no revocation endpoint';
  return revokeToken(
    {
      endpoint: grant.revocation_endpoint,
      token: grant.refresh_token ?? grant.access_token,
      hint: grant.refresh_token ? 'refresh_token' : 'access_token',
      clientId: grant.client_id,
      clientSecret: grant.client_secret,
    },
    timeoutMs,
  );
}

/** The grant kept for `namespace/connection` in this machine's secret store, if there is one. */
export async function keptGrant(namespace: string, connection: string): Promise<OAuthGrant | undefined> {
  // Read quietly: the command already said where the secret store is.
  const store = openSecretStore(homePaths().envFile, () => {});
  const value = await store.get(secretKey(namespace, connection, 'oauth'));
  if (value === undefined) return undefined;
  try {
    return parseGrant(value, `${namespace}/${connection}`);
  } catch {
    return undefined;
  }
}
