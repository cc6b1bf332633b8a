/**
 * The engine's one thrown error. Codes are a closed union; only the edges (the MCP surface,
 * the HTTP app, the CLI) turn a HubError into a wire shape. Messages say what happened and
 * what to do next.
 */

export type HubErrorCode =
  | 'not_found'
  | 'conflict'
  | 'invalid_input'
  | 'denied'
  | 'limit'
  | 'unauthorized'
  | 'schema_too_new'
  | 'corrupt'
  | 'unavailable'
  | 'internal';

/**
 * For a tool call that failed, what is known of its request: `unsent`, it never left the hub;
 * `unknown`, it left and no answer the hub can trust came back, so it may have happened;
 * `answered`, the server answered and the hub could not take the answer as a result.
 */
export type CallDelivery = 'unsent' | 'unknown' | 'answered';

export class HubError extends Error {
  override readonly name = 'HubError';
  readonly code: HubErrorCode;
  /**
   * More for a person, never for the model: a stdio source's command line, a source's URL. The
   * CLI (and later the pages) show it after the message; the MCP surface and the journal carry
   * the message alone, which names the source by its namespace.
   */
  readonly detail: string | undefined;
  /** Set on a failed tool call's error by the connector that made it (engine/connectors/call-delivery.ts). */
  readonly delivery: CallDelivery | undefined;

  constructor(
    code: HubErrorCode,
    message: string,
    options?: { cause?: unknown; detail?: string | undefined; delivery?: CallDelivery | undefined },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
    this.delivery = options?.delivery;
  }
}

/** `error` tagged with `delivery`, its own tag kept when it has one. */
export function withDelivery(error: HubError, delivery: CallDelivery): HubError {
  if (error.delivery !== undefined) return error;
  return new HubError(error.code, error.message, { cause: error.cause, detail: error.detail, delivery });
}

/** True when `error` is a HubError, optionally with the given code. */
export function isHubError(error: unknown, code?: HubErrorCode): error is HubError {
  return error instanceof HubError && (code === undefined || error.code === code);
}

/** Exhaustiveness guard: a new union member fails to compile where this is called. */
export function unreachable(value: never): never {
  throw new HubError('internal', `unreachable: ${JSON.stringify(value)}`);
}
