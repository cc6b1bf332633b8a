/**
 * Runs and their journals: a run's lifecycle, how each call ended, the calls waiting for a person
 * and a person's decisions.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition. Timestamps are epoch milliseconds from
 * the Clock port; ids are opaque strings.
 */
import { z } from 'zod';
import { RunErrorCode, ToolErrorCode } from './error-codes.ts';
import {
  ConnectionName,
  ContractDigest,
  Id,
  JsonObject,
  JsonValue,
  Timestamp,
  ToolAddress,
} from './names.ts';
import { PolicyEffect } from './policy.ts';

export const RunStatus = z.enum(['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'expired']);
export type RunStatus = z.infer<typeof RunStatus>;

/** An error as the model and the guest see it (the envelope's `error`: any code, as published). */
export const ErrorInfo = z.object({
  code: z.string().min(1),
  message: z.string(),
  hint: z.string().optional(),
});

/** Why a run failed, as stored: its code is one of RUN_ERROR_CODES (error-codes.ts). */
export const RunError = ErrorInfo.extend({ code: RunErrorCode });
export type RunError = z.infer<typeof RunError>;

/** One `execute` request's lifecycle (spec: Concepts, Run). */
export const Run = z.object({
  id: Id,
  profile: z.string().min(1),
  status: RunStatus,
  code: z.string(),
  /** Seeds Math.random and crypto in the guest; the same on every attempt. */
  seed: z.string().min(1),
  /** Epoch ms the guest's Date starts from on every attempt. */
  clockOrigin: Timestamp,
  attempts: z.number().int().nonnegative(),
  result: JsonValue.optional(),
  error: RunError.optional(),
  logs: z.array(z.string()),
  notices: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Run = z.infer<typeof Run>;

/**
 * The response headers of an HTTP API's answer that reach the code: only content-type,
 * retry-after, link and rate-limit headers (engine/connectors/openapi/http-call.ts), names lowercase.
 */
export const ResponseHeaders = z.record(z.string(), z.string());

/** An HTTP API's answer beside its body: what the code reads with `{ response: true }`. */
export const HttpResponse = z.object({ status: z.number().int(), headers: ResponseHeaders });
export type HttpResponse = z.infer<typeof HttpResponse>;

/** How one settled call ended; stored scrubbed. */
export const CallOutcome = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    value: JsonValue,
    /** An OpenAPI tool's status and allowed headers; the value is its body. */
    response: HttpResponse.optional(),
    /**
     * What the hub noticed of the answer, for the run's notices: an answer that breaks the
     * tool's declared output schema (engine/connectors/output-check.ts), passed on as it came.
     */
    notice: z.string().optional(),
    ms: z.number().nonnegative(),
  }),
  z.object({
    ok: z.literal(false),
    /** Why the call failed, as journaled and as the guest's ToolError carries it. */
    error: ErrorInfo.extend({
      code: ToolErrorCode,
      status: z.number().int().optional(),
      /** An OpenAPI tool's allowed response headers (a 429's `retry-after`). */
      headers: ResponseHeaders.optional(),
      retryable: z.boolean(),
    }),
    ms: z.number().nonnegative(),
  }),
]);
export type CallOutcome = z.infer<typeof CallOutcome>;

/** What let a call through (or stopped it): policy alone, or a person's decision. */
export const CallDecision = z.object({
  effect: PolicyEffect,
  by: z.enum(['policy', 'person']),
  decisionId: Id.optional(),
  reason: z.string(),
});

/**
 * One tool call in a run's journal. The entry is appended when the call starts; its
 * outcome is appended once when it settles. An entry without an outcome is in doubt.
 */
export const JournalEntry = z.object({
  runId: Id,
  seq: z.number().int().nonnegative(),
  address: ToolAddress,
  connection: ConnectionName.nullable(),
  /** Hex SHA-256 of the canonical JSON of the arguments. */
  argsDigest: z.string().regex(/^[0-9a-f]{64}$/),
  decision: CallDecision,
  startedAt: Timestamp,
  outcome: CallOutcome.optional(),
  settledAt: Timestamp.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const PendingKind = z.enum(['approval', 'connection']);

/** A call waiting for a person: what they are shown, redacted (spec: Security, Only a person approves). */
export const PendingInput = z.object({
  id: Id,
  runId: Id,
  seq: z.number().int().nonnegative(),
  kind: PendingKind,
  address: ToolAddress,
  connection: ConnectionName.nullable(),
  /** The first sentence of the tool's description. */
  summary: z.string(),
  /** Arguments, scrubbed and capped at 4 KB. */
  argsPreview: z.string().max(4096),
  /**
   * The digest of the exact arguments the person is shown (as JournalEntry.argsDigest). A
   * decision covers only a call with this address, connection and digest; null only on inputs
   * recorded before the hub bound decisions to arguments, which therefore cover no call.
   */
  argsDigest: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  /**
   * The tool's contract digest when the call asked: a decision covers the tool only as the
   * person was shown it (null only on inputs recorded before decisions were bound to it).
   */
  contract: ContractDigest.nullable(),
  /**
   * The whole arguments, scrubbed: the preview shortens long values, and a person may want to
   * read all of what they decide (`hub approve --full`). Never shown to the model. Absent on
   * inputs recorded before they were kept.
   */
  args: JsonObject.nullable().optional(),
  /** Why it asks; for a call that differs from one a person decided, also what changed. */
  reason: z.string(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type PendingInput = z.infer<typeof PendingInput>;

export const DecisionChoice = z.enum(['once', 'run', 'always', 'deny']);
export type DecisionChoice = z.infer<typeof DecisionChoice>;
export const DecisionChannel = z.enum(['client prompt', 'approval page', 'cli', 'dashboard']);
export type DecisionChannel = z.infer<typeof DecisionChannel>;

/** A person's answer to one pending call. Recorded once, only by the person-input module. */
export const Decision = z.object({
  id: Id,
  pendingId: Id,
  runId: Id,
  choice: DecisionChoice,
  channel: DecisionChannel,
  /** Who decided, as the channel knows them (an OS user, a signed-in account). */
  who: z.string().min(1),
  at: Timestamp,
});
export type Decision = z.infer<typeof Decision>;
