/**
 * A tool call's outcome as the journal records it and the guest receives it, scrubbed of every
 * secret the hub holds: the value or the upstream's error (tool-result.ts reads the MCP result),
 * or what to say when the call failed. An answer is an answer whatever its shape: one that breaks
 * the tool's declared output schema is passed on with a notice (output-check.ts), never reported
 * as a failure, since the call was made.
 *
 * A failure says what is known of the request (call-delivery.ts), each with its own code:
 * - answered: the server answered with an error, or with something the hub cannot read
 *   (`upstream_error`, or `result_too_large` over a cap); the call was made;
 * - sent, outcome unknown (`outcome_unknown`): a timeout, a lost connection; it may have happened,
 *   and the hub never sends it again; retryable only for a tool that declares itself read-only
 *   or idempotent;
 * - never sent (`upstream_unavailable`): the server could not be reached or started; calling
 *   again is safe.
 * An OpenAPI tool's answer also carries its status and allowed response headers (beside the
 * value, or on the error with the body's hint).
 *
 * Pure but for the output check's cache of compiled schemas: the caller hands in the scrubber
 * and the time taken.
 */

import { deliveryOf } from '../connectors/call-delivery.ts';
import { ERROR_TEXT_CHARS, HEADER_CHARS, HINT_CHARS } from '../connectors/openapi/http-call.ts';
import { outputMismatch } from '../connectors/output-check.ts';
import { type McpCallResult, toolValue } from '../connectors/tool-result.ts';
import type { CallOutcome } from '../contracts/runs.ts';
import type { ManifestTool } from '../contracts/sources.ts';
import { isHubError, unreachable } from '../errors.ts';
import type { Scrubber } from '../secrets/scrub.ts';

/** The outcome of a call the server answered. */
export function answeredCall(
  result: McpCallResult,
  tool: ManifestTool,
  ms: number,
  scrub: Scrubber,
): CallOutcome {
  try {
    const value = toolValue(result);
    const status = result.httpStatus;
    const headers = result.httpHeaders === undefined ? undefined : scrubHeaders(result.httpHeaders, scrub);
    if (value.ok) {
      const response = status === undefined ? {} : { response: { status, headers: headers ?? {} } };
      const mismatch = outputMismatch(tool, result, (text) => scrub.text(text));
      const notice = mismatch === undefined ? {} : { notice: mismatch };
      return { ok: true, value: scrub.value(value.value), ...response, ...notice, ms };
    }
    if (status === undefined) {
      const message = scrub.text(value.message);
      return { ok: false, error: { code: 'upstream_error', message, retryable: false }, ms };
    }
    const message = cut(scrub.text(value.message), ERROR_TEXT_CHARS);
    // An API's error status: 429 was refused, so calling again later is safe; a 5xx only when
    // the tool says calling it twice does no harm (the request may have been half done).
    const safe = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
    const retryable = status === 429 || (status >= 500 && safe);
    const hints = [
      status === 429 ? 'the API limits how often it is called: wait before calling again' : undefined,
      result.httpHint === undefined
        ? undefined
        : `the API says: ${cut(scrub.text(result.httpHint), HINT_CHARS)}`,
    ].filter((hint) => hint !== undefined);
    return {
      ok: false,
      error: {
        code: 'upstream_error',
        message,
        status,
        ...(headers === undefined ? {} : { headers }),
        retryable,
        ...(hints.length > 0 ? { hint: hints.join('; ') } : {}),
      },
      ms,
    };
  } catch {
    // Only the answer could not be read (nested too deeply for JSON, say).
    return {
      ok: false,
      error: {
        code: 'upstream_error',
        message: `${tool.address} answered, but with something the hub cannot read (nested too deeply); the call was made`,
        retryable: false,
      },
      ms,
    };
  }
}

/** Response headers as they may reach the code: every value scrubbed, as everything from upstream. */
function scrubHeaders(
  headers: { readonly [name: string]: string },
  scrub: Scrubber,
): { [name: string]: string } {
  const clean: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(headers))
    clean[scrub.text(name)] = cut(scrub.text(value), HEADER_CHARS);
  return clean;
}

/** `text` cut to `max` characters, saying so; only ever applied to scrubbed text. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * The outcome of a call that failed on its way to the server or back, by what is known of its
 * request (`HubError.delivery`; a failure that does not say is taken as sent, outcome unknown).
 * An answer over a transport's cap (a HubError `limit`: a stdio message or an HTTP response too
 * large) is `result_too_large`: the call was made, the source is not at fault.
 */
export function failedCall(error: unknown, tool: ManifestTool, ms: number, scrub: Scrubber): CallOutcome {
  const message = scrub.text(error instanceof Error ? error.message : String(error));
  if (isHubError(error, 'limit')) {
    return {
      ok: false,
      error: {
        code: 'result_too_large',
        message,
        retryable: false,
        hint: 'ask the tool for less (a page, a filter, fewer fields); the call was made',
      },
      ms,
    };
  }
  const delivery = deliveryOf(error);
  switch (delivery) {
    case 'unsent':
      return {
        ok: false,
        error: {
          code: 'upstream_unavailable',
          message: `${message} (the call was not sent)`,
          retryable: true,
        },
        ms,
      };
    case 'answered':
      return {
        ok: false,
        error: {
          code: 'upstream_error',
          message,
          retryable: false,
          hint: 'the call was made and the server answered it: read what it said before calling again',
        },
        ms,
      };
    case 'unknown': {
      const safe = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
      return {
        ok: false,
        error: {
          code: 'outcome_unknown',
          message: `${message} (the call was sent; whether it happened is unknown)`,
          retryable: safe,
          hint: safe
            ? 'the tool says calling it again does no harm'
            : 'it may or may not have happened, and the hub never sends it again: check upstream before trying again',
        },
        ms,
      };
    }
    default:
      return unreachable(delivery);
  }
}
