/**
 * A source draft: a remote MCP server or an OpenAPI document a person is adding from the
 * dashboard, inspected and shown for review, waiting for their Confirm
 * (engine/sources/source-drafts.ts). It holds what the person was shown (the source: for a
 * document, its URL, the API's server and the hosts calls may reach; its manifest, the notices,
 * the credentials a document asks for), so a confirmation stores exactly that, and a pointer to
 * the credential they entered for a server, whose value waits in the secret store under a draft
 * key until it becomes the source's `default` connection. Never a secret's value. A draft lives
 * for minutes (`expiresAt`).
 *
 * The hub's records, as zod 4 schemas: one definition per record.
 */
import { z } from 'zod';
import { CredentialAsk, SecretDelivery } from './connections.ts';
import { Timestamp } from './names.ts';
import { HttpSource, Manifest, OpenApiSource } from './sources.ts';

export const SourceDraftRecord = z.object({
  /** Random, unguessable: the only thing the review page carries. */
  id: z.string().regex(/^draft_[a-f0-9]{32}$/),
  source: z.discriminatedUnion('kind', [HttpSource, OpenApiSource]),
  manifest: Manifest,
  /** What the hub left out or cut of what the server declared, as shown. */
  notices: z.array(z.string()),
  /** The secret store's key of the credential entered, and how it reaches the server; null: none. */
  credential: z.object({ key: z.string().min(1).max(200), delivery: SecretDelivery }).nullable(),
  /**
   * An OpenAPI document's: the credentials its operations use, as shown; the review takes the
   * value of the first that a person can type (a key, or a user and a password). Empty for a server.
   */
  asks: z.array(CredentialAsk),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type SourceDraftRecord = z.infer<typeof SourceDraftRecord>;
