/**
 * What is known of a tool call that failed (issue #38): whether its request never left the hub,
 * left and got no answer the hub can trust, or was answered with something the hub could not
 * take. A connector tags the error it throws (`HubError.delivery`); call-outcome.ts turns the
 * tag into the code the guest and the journal see, so a call that was sent is never reported
 * with a code that means "not sent", and a model never writes twice believing the first did not
 * happen.
 *
 * Reading an error from the MCP SDK client or a fetch, only what proves a fact counts: a
 * JSON-RPC error or an unreadable result is an answer; an error the SDK raises before it writes
 * (not connected, a method the peer's era lacks) and a connection refused or a name that does
 * not resolve are unsent; everything else (a timeout, a closed connection, a reset, an HTTP 5xx,
 * an error this module does not know) is unknown.
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { type CallDelivery, isHubError, withDelivery } from '../errors.ts';

/**
 * SDK errors raised before the request is written to the transport. CapabilityNotSupported is
 * also raised when the SDK cannot fulfil a server's input request, after it answered; the hub's
 * client turns that fulfilment off (mcp-connector.ts), so an input request arrives as
 * UnsupportedResultType, an answer.
 */
const BEFORE_SEND: ReadonlySet<string> = new Set([
  SdkErrorCode.NotConnected,
  SdkErrorCode.AlreadyConnected,
  SdkErrorCode.NotInitialized,
  SdkErrorCode.CapabilityNotSupported,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
]);

/** SDK errors about an answer that arrived: it was read, and refused. */
const ANSWER_REFUSED: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
]);

/** System error codes of a connection that was never made: nothing reached the server. */
const NEVER_CONNECTED = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/;
/** The calls those codes prove it on: connecting, or finding the address (not a read or write). */
const BEFORE_CONNECTED: ReadonlySet<string> = new Set(['connect', 'getaddrinfo']);

/** The delivery `error` proves, reading it and its causes; `unknown` when nothing proves more. */
export function deliveryOf(error: unknown): CallDelivery {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; depth++) {
    const known = provenDelivery(at);
    if (known) return known;
    at = (at as { cause?: unknown }).cause;
  }
  return 'unknown';
}

function provenDelivery(error: unknown): CallDelivery | undefined {
  if (isHubError(error)) return error.delivery;
  if (error instanceof SdkHttpError) {
    // The server answered with a status: a refusal (4xx) is an answer; a 5xx, a 408 or a
    // gateway's status may come after the server acted on the request.
    const status = error.status;
    return status >= 400 && status < 500 && status !== 408 ? 'answered' : 'unknown';
  }
  if (error instanceof ProtocolError) return 'answered';
  if (error instanceof SdkError) {
    if (BEFORE_SEND.has(error.code)) return 'unsent';
    if (ANSWER_REFUSED.has(error.code)) return 'answered';
    return undefined;
  }
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string' && NEVER_CONNECTED.test(code) && typeof syscall === 'string') {
    // An unreachable host is also reported on a connection already open, after writing.
    if (BEFORE_CONNECTED.has(syscall)) return 'unsent';
  }
  return undefined;
}

/** `error` tagged unsent: it was thrown before the request could leave the hub. */
export function beforeSending(error: unknown): unknown {
  return isHubError(error) ? withDelivery(error, 'unsent') : error;
}
