/**
 * Errors at the MCP edge (design: Errors). A HubError whose message is written for the caller
 * (bad input, something not found, a conflict, a limit) becomes an `isError` tool result with
 * that message, so the model can correct itself and go on. Anything else, a HubError about the
 * host's own state or an error the engine did not expect, becomes one generic line: the detail
 * goes to the host's log, never to the model (it may name paths or carry upstream text).
 */
import type { HubErrorCode } from '../errors.ts';
import { HubError } from '../errors.ts';

/** A `tools/call` result that reports a failure to the model. */
export interface ToolErrorResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError: true;
}

/** Codes whose messages say what the caller did and what to do next. */
const FOR_THE_CALLER: ReadonlySet<HubErrorCode> = new Set([
  'invalid_input',
  'not_found',
  'conflict',
  'denied',
  'limit',
  'unauthorized',
  'unavailable',
]);

/** What the model reads when the hub itself failed. */
export const INTERNAL_MESSAGE =
  'internal: the hub could not answer this call; the detail is in its log. Try again, or tell the user if it keeps failing.';

export const errorResult = (text: string): ToolErrorResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

/**
 * The tool result for an error thrown while answering `tool`. Calls `log` for errors the model
 * is not told about, so the host keeps the detail.
 */
export function toolError(
  tool: string,
  error: unknown,
  log: (message: string, error: unknown) => void,
): ToolErrorResult {
  if (error instanceof HubError && FOR_THE_CALLER.has(error.code)) {
    return errorResult(`${error.code}: ${error.message}`);
  }
  log(`${tool} failed inside the hub`, error);
  return errorResult(INTERNAL_MESSAGE);
}
