/**
 * An OAuth connection's grant: what the secret store keeps under the key of a `SecretRef` whose
 * delivery is `oauth` (spec: Concepts, Connection). One JSON value holds the tokens and what a
 * refresh needs without the person: the authorization server and its token endpoint as recorded
 * at sign-in, the client (id, and secret for a confidential one), the resource and scope asked
 * for, and when the access token expires. The access token goes to the source as
 * `Authorization: Bearer …`; the refresh token and the client secret go only to the token
 * endpoint. Each of the three is a secret of its own for scrubbing (`grantSecretValues`), besides
 * the JSON that holds them.
 */
import { z } from 'zod';
import { HubError } from '../errors.ts';

export const OAuthGrant = z.object({
  access_token: z.string().min(1),
  token_type: z.string().default('Bearer'),
  refresh_token: z.string().min(1).optional(),
  /** Epoch ms the access token stops working; absent: the server did not say. */
  expires_at: z.number().optional(),
  /** How long the access token was granted for, in ms (`expires_in`), for the refresh margin. */
  lifetime_ms: z.number().optional(),
  scope: z.string().optional(),
  /** The authorization server (its issuer URL). */
  authorization_server: z.string().url(),
  /** The one URL a refresh is sent to. */
  token_endpoint: z.string().url(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  revocation_endpoint: z.string().url().optional(),
  /** The protected resource the tokens are for (RFC 8707), as the server's metadata named it. */
  resource: z.string().optional(),
  /** The origin of the source the person signed in for: the access token goes nowhere else (I4). */
  issued_for: z.string().url().optional(),
  client_id: z.string().min(1),
  client_secret: z.string().min(1).optional(),
});
export type OAuthGrant = z.infer<typeof OAuthGrant>;

/** How long before its expiry an access token is refreshed: a minute, or half its life if shorter. */
export const REFRESH_MARGIN_MS = 60_000;

/** The grant kept under an `oauth` ref; a corrupt value says how to mend it. */
export function parseGrant(value: string, connection: string): OAuthGrant {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = undefined;
  }
  const parsed = OAuthGrant.safeParse(json);
  if (!parsed.success) {
    throw new HubError('corrupt', `the sign-in kept for "${connection}" cannot be read; sign in again`);
  }
  return parsed.data;
}

/** The grant's secret values, each scrubbed on its own: the access token, the refresh token, the client secret. */
export function grantSecretValues(grant: OAuthGrant): string[] {
  return [grant.access_token, grant.refresh_token, grant.client_secret].filter(
    (value): value is string => value !== undefined,
  );
}

/**
 * Every value to scrub for a secret store value: the value itself and, when it is a grant, its
 * tokens and client secret (the JSON blob alone would not match a token quoted on its own).
 */
export function secretValuesOf(value: string): string[] {
  if (!value.startsWith('{')) return [value];
  try {
    const parsed = OAuthGrant.safeParse(JSON.parse(value));
    return parsed.success ? [value, ...grantSecretValues(parsed.data)] : [value];
  } catch {
    return [value];
  }
}

/** True when the access token has expired, or will within the refresh margin. */
export function needsRefresh(grant: OAuthGrant, now: number): boolean {
  if (grant.expires_at === undefined) return false;
  const margin = Math.min(REFRESH_MARGIN_MS, (grant.lifetime_ms ?? Number.POSITIVE_INFINITY) / 2);
  return now >= grant.expires_at - margin;
}

/** The grant after a token response (`expires_in` in seconds), keeping what the response leaves out. */
export function renewedGrant(
  grant: OAuthGrant,
  tokens: {
    access_token: string;
    token_type?: string;
    refresh_token?: string;
    expires_in?: number;
    scope?: string;
  },
  now: number,
): OAuthGrant {
  const { expires_at: _at, lifetime_ms: _life, ...kept } = grant;
  return {
    ...kept,
    access_token: tokens.access_token,
    token_type: tokens.token_type ?? grant.token_type,
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
    ...(typeof tokens.expires_in === 'number'
      ? { expires_at: now + tokens.expires_in * 1000, lifetime_ms: tokens.expires_in * 1000 }
      : {}),
  };
}

/** What a sign-in learned besides the tokens: where they came from, for whom, and for what. */
export interface GrantOrigin {
  /** The authorization server's metadata as discovered (RFC 8414). */
  metadata: {
    issuer: string;
    token_endpoint: string;
    token_endpoint_auth_methods_supported?: string[] | undefined;
    revocation_endpoint?: unknown;
  };
  /** The protected resource the tokens are for (RFC 8707), when the source named one. */
  resource?: string | undefined;
  /** The origin of the source signed in to: the access token goes nowhere else (I4). */
  issuedFor: string;
  client: { client_id: string; client_secret?: string | undefined };
}

/**
 * The grant a sign-in ends with: the token response (`expires_in` in seconds, read at `now`) and
 * what a refresh needs without the person. Both hubs' sign-ins make it here.
 */
export function grantOf(
  tokens: {
    access_token: string;
    token_type?: string;
    refresh_token?: string;
    expires_in?: number;
    scope?: string;
  },
  origin: GrantOrigin,
  now: number,
): OAuthGrant {
  const { metadata, resource, client } = origin;
  return {
    access_token: tokens.access_token,
    token_type: tokens.token_type ?? 'Bearer',
    ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}),
    ...(typeof tokens.expires_in === 'number'
      ? { expires_at: now + tokens.expires_in * 1000, lifetime_ms: tokens.expires_in * 1000 }
      : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
    authorization_server: metadata.issuer,
    token_endpoint: metadata.token_endpoint,
    ...(metadata.token_endpoint_auth_methods_supported
      ? { token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported }
      : {}),
    ...(typeof metadata.revocation_endpoint === 'string'
      ? { revocation_endpoint: metadata.revocation_endpoint }
      : {}),
    ...(resource ? { resource } : {}),
    issued_for: origin.issuedFor,
    client_id: client.client_id,
    ...(client.client_secret ? { client_secret: client.client_secret } : {}),
  };
}
