/**
 * Revoking an OAuth connection's grant where it was issued (RFC 7009), when the hub lets go of
 * it: the person signs the connection in again (the former grant would linger otherwise), or
 * removes the source. The refresh token is revoked (it carries the grant, access tokens and all),
 * else the access token; only to the revocation endpoint the authorization server named at
 * sign-in. The hub forgets the grant whatever the server says; the caller tells the person when
 * it could not be revoked.
 */
import { secretKey } from '../../engine/secrets/secret-store.ts';
import { type OAuthGrant, parseGrant } from '../../engine/sources/oauth-grant.ts';
import { homePaths } from '../home.ts';
import { fetchFailure } from '../hosted/hosted-errors.ts';
import { openSecretStore } from '../secret-store.ts';

/** What the person is told when a grant could not be revoked. */
export const notRevoked = (what: string, why: string): string =>
  `Could not revoke ${what} where it was issued (${why}); it stays valid there until it expires, or until you revoke it on the service's settings page.`;

/** Undefined once revoked; else why not, in a few words. */
export async function revokeGrant(grant: OAuthGrant): Promise<string | undefined> {
  if (!grant.revocation_endpoint) return 'its authorization server offers no revocation endpoint';
  const form = new URLSearchParams({
    token: grant.refresh_token ?? grant.access_token,
    token_type_hint: grant.refresh_token ? 'refresh_token' : 'access_token',
    client_id: grant.client_id,
  });
  if (grant.client_secret) form.set('client_secret', grant.client_secret);
  try {
    const answer = await fetch(grant.revocation_endpoint, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    await answer.body?.cancel();
    return answer.ok ? undefined : `its revocation endpoint answered ${answer.status}`;
  } catch (error) {
    return `could not reach its revocation endpoint: ${fetchFailure(error) ?? String(error)}`;
  }
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
