/**
 * Approvals in the client's own prompt (spec: Approvals over MCP): the form a person answers and
 * what came of it.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { Id } from './names.ts';
import { DecisionChoice } from './runs.ts';

/** A client-prompt form's one field: the four choices as a flat enum (MCP form elicitation). */
export const PromptSchema = z.object({
  type: z.literal('object'),
  properties: z.object({
    decision: z.object({
      type: z.literal('string'),
      title: z.string(),
      description: z.string(),
      enum: z.array(DecisionChoice),
    }),
  }),
  required: z.array(z.literal('decision')),
});
export type PromptSchema = z.infer<typeof PromptSchema>;

/** One form a person answers in their client: one pending call, keyed by its id. */
export const PromptForm = z.object({
  pendingId: Id,
  /** The call's address, connection, redacted arguments, reason and expiry, for the person. */
  message: z.string(),
  requestedSchema: PromptSchema,
});
export type PromptForm = z.infer<typeof PromptForm>;

/** What a client that declared form elicitation is asked: a form per pending call, one signed state. */
export const PromptRequest = z.object({
  requestState: z.string(),
  forms: z.array(PromptForm).min(1),
});
export type PromptRequest = z.infer<typeof PromptRequest>;

/** What came of a person's answers in their client's prompt. */
export const PromptOutcome = z.object({
  runId: Id,
  /** Pending calls whose decision was recorded (channel `client prompt`). */
  decided: z.array(Id),
  /** Pending calls declined, cancelled or left without a choice: still waiting for a person. */
  undecided: z.array(Id),
});
export type PromptOutcome = z.infer<typeof PromptOutcome>;
