/**
 * The execute envelope (spec: The MCP surface, execute): what the model gets back from a run.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { ErrorInfo, PendingKind } from './runs.ts';

export const EnvelopeStatus = z.enum([
  /** Another attempt is running the run right now: ask again after `retryAfterMs`; nothing failed. */
  'running',
  'completed',
  'failed',
  'awaiting_approval',
  'awaiting_connection',
  'cancelled',
]);

/**
 * Any JSON value, declared as one: `anyOf` a branch per JSON type, so a strict validator (the MCP
 * Inspector's `--strict`) sees a schema that says what it accepts rather than an empty `{}`. The
 * object branch says `additionalProperties: true`, which also keeps zod from folding the branches
 * into a `type` array (less portable). Validation is `unknown`: a run's result is JSON already.
 */
export const AnyJson = z.unknown().meta({
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'null' },
    { type: 'array' },
    { type: 'object', additionalProperties: true },
  ],
});

export const ExecuteEnvelope = z.object({
  runId: z.string(),
  status: EnvelopeStatus,
  result: AnyJson.optional(),
  error: ErrorInfo.optional(),
  logs: z.array(z.string()).optional(),
  calls: z.array(z.object({ address: z.string(), ok: z.boolean(), ms: z.number() })),
  pending: z
    .array(
      z.object({
        id: z.string(),
        kind: PendingKind,
        address: z.string().optional(),
        summary: z.string(),
        message: z.string().optional(),
        /** With kind `connection`: the connection whose sign-in a person must make again. */
        connection: z.string().optional(),
      }),
    )
    .optional(),
  truncated: z.object({ result: z.boolean().optional(), logs: z.boolean().optional() }).optional(),
  notices: z.array(z.string()).optional(),
  /** With status `awaiting_approval`: the hub opened its approval page on the person's screen. */
  page: z.literal('opened').optional(),
  /** With status `running`: when to call `execute({ resume })` again, in milliseconds. */
  retryAfterMs: z.number().int().positive().optional(),
});
export type ExecuteEnvelope = z.infer<typeof ExecuteEnvelope>;
