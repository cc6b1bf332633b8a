/**
 * A source draft: a remote server a person is adding from the dashboard, inspected and shown for
 * review, waiting for their Confirm (engine/sources/source-drafts.ts). It holds what the person
 * was shown (the source, its manifest, the notices), so a confirmation stores exactly that, and
 * a pointer to the credential they entered, whose value waits in the secret store under a draft
 * key until it becomes the source's `default` connection. Never a secret's value. A draft lives
 * for minutes (`expiresAt`).
 *
 * The hub's records, as zod 4 schemas: one definition per record.
 */
import { z } from 'zod';
import { SecretDelivery } from './connections.ts';
import { Timestamp } from './names.ts';
import { HttpSource, Manifest } from './sources.ts';

export const SourceDraftRecord = z.object({
  /** Random, unguessable: the only thing the review page carries. */
  id: z.string().regex(/^draft_[a-f0-9]{32}$/),
  source: HttpSource,
  manifest: Manifest,
  /** What the hub left out or cut of what the server declared, as shown. */
  notices: z.array(z.string()),
  /** The secret store's key of the credential entered, and how it reaches the server; null: none. */
  credential: z.object({ key: z.string().min(1).max(200), delivery: SecretDelivery }).nullable(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type SourceDraftRecord = z.infer<typeof SourceDraftRecord>;
