/**
 * The closed sets of error codes a run and a tool call can end with, as the journal and the runs
 * table store them and the model reads them (design: "Errors"). A new code is added here, and a
 * code not listed fails to compile where it is made.
 *
 * The types admit only these codes; the schemas read any other as `upstream_error` (a call's
 * outcome) or `tool_error` (a run's error), so rows an older hub stored still load. A guest's own
 * `ToolError` may carry any code (the sandbox carries it as it is); an uncaught one ends the run
 * with its code when it is one of these, else `tool_error` (runErrorCode).
 */
import { z } from 'zod';

/** Why a tool call failed, as the guest's `ToolError.code` says it. */
export const TOOL_ERROR_CODES = [
  /** Policy denies the tool. */
  'denied',
  /** A person denied this call. */
  'approval_denied',
  /** No such tool, or no such connection of its source. */
  'not_found',
  /** The arguments or the lookup request cannot be taken as they are. */
  'invalid_input',
  /** The bridge refused the call before the hub saw it (an address or arguments it cannot take). */
  'invalid_call',
  /** The run reached its `maxCalls`. */
  'limit',
  /**
   * The call was sent and no answer the hub can trust came back (a timeout, a lost connection,
   * the hub stopped while it was in flight): it may or may not have happened, and it is never
   * sent again.
   */
  'outcome_unknown',
  /** The tool answered with an error, or with something the hub cannot read: the call was made. */
  'upstream_error',
  /** The call was never sent: its server could not be reached or started, or a secret is missing. */
  'upstream_unavailable',
  /** The guest's bridge could not read the hub's answer. */
  'bridge',
  /** A ToolError the guest made without a code. */
  'tool_error',
  /**
   * A tool's result is over the hard cap for one result, or would take the run's result blobs
   * past their budget (engine/runs/result-handles.ts); also a run's own result over its limit.
   */
  'result_too_large',
] as const;

export const ToolErrorCode = z.enum(TOOL_ERROR_CODES).catch('upstream_error');
export type ToolErrorCode = z.infer<typeof ToolErrorCode>;

/** Why a run failed, or ended without completing. An uncaught ToolError's code is one too. */
export const RUN_ERROR_CODES = [
  ...TOOL_ERROR_CODES,
  // The pipeline refused the code before it ran.
  'code_too_large',
  'syntax_error',
  'unsupported',
  // The code ran and failed.
  /** An error the code threw and did not catch (not a ToolError). */
  'uncaught',
  'result_not_json',
  'deadlock',
  // A limit ended the attempt.
  'compute_limit',
  'wall_limit',
  'memory_limit',
  'stack_limit',
  // The hub ended the attempt, or the run.
  /** The code took another path on resume than the journal recorded. */
  'divergence',
  'cancelled',
  /** A request for a person expired, or a decided run was never resumed. */
  'expired',
  /** The process running the attempt died and no one resumed the run. */
  'abandoned',
  /** The store could not take how the run ended (its result nested too deeply, say). */
  'result',
  /** The sandbox itself failed. */
  'sandbox_failed',
  /** The hub failed in a way it does not know; a bug. */
  'internal',
] as const;

export const RunErrorCode = z.enum(RUN_ERROR_CODES).catch('tool_error');
export type RunErrorCode = z.infer<typeof RunErrorCode>;

const RUN_CODES: ReadonlySet<string> = new Set(RUN_ERROR_CODES);

/** A code the guest reported, as a run's: itself when it is one of RUN_ERROR_CODES, else `tool_error`. */
export function runErrorCode(code: string): RunErrorCode {
  return RUN_CODES.has(code) ? (code as RunErrorCode) : 'tool_error';
}
