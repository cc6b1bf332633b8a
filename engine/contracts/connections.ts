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

/** How a secret reaches the source: an environment variable (stdio), an HTTP header, or an OAuth grant's access token. */
export const SecretDelivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('env'), variable: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
  z.object({
    kind: z.literal('header'),
    name: z.string().regex(/^[A-Za-z0-9-]+$/),
    /** Prefix before the value, e.g. `Bearer`; empty for a bare value. */
    scheme: z.string().default('Bearer'),
  }),
  /** An OAuth grant (engine/sources/oauth-grant.ts): its access token as `Authorization: Bearer`, refreshed when due. */
  z.object({ kind: z.literal('oauth') }),
]);

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
