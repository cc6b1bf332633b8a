/**
 * One token revocation request (RFC 7009), shared by every sign-in the CLI lets go of: a source's
 * OAuth grant (revoke-grant.ts) and the CLI's own sign-in to a hosted hub (hosted/sign-in.ts).
 * The token goes only to the revocation endpoint the caller names, never after a redirect, and a
 * server that does not answer within the timeout is given up on: a command that lets go of a
 * sign-in (`hub remove`, `hub auth`, `hub logout`) never hangs on it. The caller forgets the token
 * whatever happened here and tells the person when it was not revoked.
 */
import { fetchFailure } from '../hosted/hosted-errors.ts';

/** How long a revocation endpoint has to answer. */
export const REVOKE_TIMEOUT_MS = 10_000;

export interface Revocation {
  endpoint: string;
  token: string;
  hint: 'refresh_token' | 'access_token';
  clientId: string;
  /** A confidential client's secret, sent in the form (client_secret_post). */
  clientSecret?: string | undefined;
}

/** Undefined once revoked; else why not, in a few words. */
export async function revokeToken(
  revocation: Revocation,
  timeoutMs = REVOKE_TIMEOUT_MS,
): Promise<string | undefined> {
  const form = new URLSearchParams({
    token: revocation.token,
    token_type_hint: revocation.hint,
    client_id: revocation.clientId,
  });
  if (revocation.clientSecret) form.set('client_secret', revocation.clientSecret);
  try {
    const answer = await fetch(revocation.endpoint, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.body?.cancel();
    return answer.ok ? undefined : `its revocation endpoint answered ${answer.status}`;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      return `its revocation endpoint did not answer within ${timeoutMs / 1000} s`;
    }
    return `could not reach its revocation endpoint: ${fetchFailure(error) ?? String(error)}`;
  }
}
