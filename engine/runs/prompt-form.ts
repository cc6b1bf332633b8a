/**
 * The form a person answers in their client for one pending call (spec: Security, "Only a
 * person approves"): what asks (the tool's address and connection, the first sentence of what
 * it does), the arguments as the pending input holds them (redacted, capped at 4 KB), why it
 * asks, when the request expires, and the four choices as one flat enum, which every client
 * that renders form elicitation can show. Untrusted text in it is inert (engine/inert.ts).
 * Everything here is for the person; the model never reads it.
 */

import type { PromptForm, PromptSchema } from '../contracts/prompt.ts';
import type { DecisionChoice, PendingInput } from '../contracts/runs.ts';
import { inertJson, inertLine } from '../inert.ts';

/** The choices, in the order a person reads them. */
export const CHOICES: readonly DecisionChoice[] = ['once', 'run', 'always', 'deny'];

/** The form's schema: one required `decision` field. */
export const PROMPT_SCHEMA: PromptSchema = {
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      description:
        'once: allow this call. run: allow this tool for the rest of this run. always: always allow this tool as it is now. deny: refuse this call.',
      enum: [...CHOICES],
    },
  },
  required: ['decision'],
};

/** `2026-11-06 14:03 UTC`: minutes are enough for a person. */
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The form for one pending approval. */
export function promptForm(pending: PendingInput): PromptForm {
  // Shown in the person's own client (a terminal, a page): what an upstream or guest code wrote
  // is inert there too, so no escape sequence or bidi override disguises the call being decided.
  const message = [
    `Allow ${pending.address} (connection: ${pending.connection ?? 'none'})?`,
    inertLine(pending.summary),
    `Arguments: ${inertJson(pending.argsPreview)}`,
    `Why it asks: ${inertLine(pending.reason)}`,
    `Run ${pending.runId}, call ${pending.seq + 1}. The request expires ${when(pending.expiresAt)}.`,
  ].join('\n');
  return { pendingId: pending.id, message, requestedSchema: PROMPT_SCHEMA };
}
