/**
 * The local hub's settings file, hub.json.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { Id, Timestamp } from './names.ts';

export const HubSettings = z.object({
  /** Loopback port of `hub serve --http`. */
  httpPort: z.number().int().min(1).max(65535).default(4790),
  /**
   * Whether the hub opens its approval page in the person's browser when a client cannot ask
   * them itself (`CAPABILITIES_OPEN_PAGES=0` turns it off for one process).
   */
  openPages: z.boolean().default(true),
});

export const HubFile = z.object({
  hubId: Id,
  schemaVersion: z.number().int().nonnegative(),
  createdAt: Timestamp,
  settings: HubSettings.prefault({}),
});
export type HubFile = z.infer<typeof HubFile>;
