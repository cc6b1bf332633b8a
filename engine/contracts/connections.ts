/**
 * Connections: one named credential per source, and how its secret reaches the source. Records hold
 * references to secrets, never their values (spec: Security, "Secrets stay out of reach").
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { ConnectionName, Namespace, Timestamp } from './names.ts';

/**
 * How a secret reaches the source: an environment variable (stdio), an HTTP header, (an OpenAPI
 * API key) a query parameter or a cookie, or an OAuth grant's access token.
 */
export const SecretDelivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('env'), variable: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
  z.object({
    kind: z.literal('header'),
    name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/),
    /** Prefix before the value, e.g. `Bearer`; empty for a bare value. */
    scheme: z.string().default('Bearer'),
  }),
  z.object({ kind: z.literal('query'), name: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('cookie'), name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/) }),
  /** An OAuth grant (engine/secrets/oauth-grant.ts): its access token as `Authorization: Bearer`, refreshed when due. */
  z.object({ kind: z.literal('oauth') }),
]);

export type SecretDelivery = z.infer<typeof SecretDelivery>;

/** An OAuth 2 authorization code flow as an OpenAPI document gives it (no discovery). */
export const OAuthFlowAsk = z.object({
  authorizationUrl: z.string(),
  tokenUrl: z.string(),
  /** Every scope the document's operations list for the scheme, in first-seen order. */
  scopes: z.array(z.string()),
});
export type OAuthFlowAsk = z.infer<typeof OAuthFlowAsk>;

/**
 * One credential an OpenAPI document's operations use (engine/connectors/openapi/security.ts reads them):
 * what `hub add` asks for, and what the dashboard's review of a document shows.
 */
export const CredentialAsk = z.object({
  /** The scheme's name in the document (`api_key`). */
  scheme: z.string(),
  /** How the value reaches the API; undefined when the hub does not support the scheme yet. */
  delivery: SecretDelivery.optional(),
  /** HTTP basic: ask for a user and a password and keep base64 of `user:password`. */
  basic: z.boolean().optional(),
  /** What the scheme is, for a person (`API key in header api_key`, `OAuth 2 (not supported yet)`). */
  label: z.string(),
  /** OAuth 2 with an authorization code flow: what a sign-in needs, from the document. */
  oauth: OAuthFlowAsk.optional(),
});
export type CredentialAsk = z.infer<typeof CredentialAsk>;

/** How a secret reaches its source, in a few words for a person (`header X-Key`, `query key`). */
export function describeDelivery(delivery: SecretDelivery): string {
  switch (delivery.kind) {
    case 'env':
      return `env ${delivery.variable}`;
    case 'header':
      return `header ${delivery.name}${delivery.scheme ? ` (${delivery.scheme})` : ''}`;
    case 'query':
      return `query parameter ${delivery.name}`;
    case 'cookie':
      return `cookie ${delivery.name}`;
    case 'oauth':
      return 'OAuth sign-in';
  }
}

/** A delivery's name: its environment variable, header, query parameter or cookie, or `oauth`. */
export function deliveryName(delivery: SecretDelivery): string {
  switch (delivery.kind) {
    case 'env':
      return delivery.variable;
    case 'oauth':
      return 'oauth';
    default:
      return delivery.name;
  }
}

/** A pointer into the secret store. Never the value. */
export const SecretRef = z.object({
  /** The secret store's key (keychain account) for the value. */
  key: z.string().min(1).max(200),
  delivery: SecretDelivery,
  /**
   * When the value was last entered: a new value under the same key changes this, so every
   * process serving the hub knows to read it again for scrubbing (hub-secrets.ts).
   */
  setAt: Timestamp.optional(),
  /**
   * An OAuth connection's: the SHA-256 (hex) of an access token the source refused (401) while
   * the clock called it good. That token is refreshed before it is sent again, in every process
   * serving the hub; the grant in the secret store is never rewritten for it.
   */
  refused: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type SecretRef = z.infer<typeof SecretRef>;

/** One named credential for one source (`github/work`). */
export const Connection = z.object({
  namespace: Namespace,
  name: ConnectionName,
  isDefault: z.boolean(),
  secrets: z.array(SecretRef),
  createdAt: Timestamp,
});
export type Connection = z.infer<typeof Connection>;
