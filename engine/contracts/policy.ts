/**
 * Policy: allow, ask or deny on a source or a tool, optionally narrowed to a connection and pinned
 * to a contract.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { ConnectionName, ContractDigest, Id, Namespace, Timestamp, ToolAddress } from './names.ts';

export const PolicyEffect = z.enum(['allow', 'ask', 'deny']);
export type PolicyEffect = z.infer<typeof PolicyEffect>;

export const PolicyTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('source'), namespace: Namespace }),
  z.object({ kind: z.literal('tool'), address: ToolAddress }),
]);

/** A rule on a source or a tool, optionally narrowed to one connection and pinned to one contract. */
export const PolicyRule = z.object({
  id: Id,
  target: PolicyTarget,
  /**
   * The connection the rule is narrowed to; `null` narrows it to calls on no connection (a
   * source with none, as a person decided `always` for it); absent, it covers every connection.
   */
  connection: ConnectionName.nullable().optional(),
  effect: PolicyEffect,
  /** Pinned contract: the rule stops applying once the tool's digest differs. */
  contract: ContractDigest.optional(),
  createdAt: Timestamp,
});
export type PolicyRule = z.infer<typeof PolicyRule>;
