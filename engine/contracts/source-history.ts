/**
 * A source's history: what a person changed on it, when and who (the dashboard's session, or the
 * host's own name for a command), shown on the source's page. Kept by namespace and outliving the
 * source, so a removal stays on record after everything else of it is gone.
 *
 * The hub's records, as zod 4 schemas (see sources.ts).
 */
import { z } from 'zod';
import { ContractDigest, Id, Namespace, Timestamp, ToolAddress } from './names.ts';
import { PolicyEffect } from './policy.ts';

/** What changed: a tool's rule (an effect, or back to the default), a review, or the removal. */
export const SourceChange = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('rule'),
    address: ToolAddress,
    /** `default`: no rule of the person's own, so the tool's annotations decide (policy/evaluate.ts). */
    effect: z.union([PolicyEffect, z.literal('default')]),
    /** The contract the rule pins to, as the person was shown it. */
    contract: ContractDigest,
  }),
  z.object({ kind: z.literal('reviewed'), tools: z.number().int().nonnegative() }),
  z.object({
    kind: z.literal('removed'),
    tools: z.number().int().nonnegative(),
    connections: z.number().int().nonnegative(),
    rules: z.number().int().nonnegative(),
  }),
]);
export type SourceChange = z.infer<typeof SourceChange>;

export const SourceEvent = z.object({
  id: Id,
  namespace: Namespace,
  /** Who made the change, as the host knows them (`github:ana`, an OS user). */
  who: z.string().min(1).max(200),
  change: SourceChange,
  at: Timestamp,
});
export type SourceEvent = z.infer<typeof SourceEvent>;
