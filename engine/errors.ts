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

export class HubError extends Error {
  override readonly name = 'HubError';
  readonly code: HubErrorCode;
  /**
   * More for a person, never for the model: a stdio source's command line, a source's URL. The
   * CLI (and later the pages) show it after the message; the MCP surface and the journal carry
   * the message alone, which names the source by its namespace.
   */
  readonly detail: string | undefined;

  constructor(code: HubErrorCode, message: string, options?: { cause?: unknown; detail?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
  }
}

/** True when `error` is a HubError, optionally with the given code. */
export function isHubError(error: unknown, code?: HubErrorCode): error is HubError {
  return error instanceof HubError && (code === undefined || error.code === code);
}

/** Exhaustiveness guard: a new union member fails to compile where this is called. */
export function unreachable(value: never): never {
  throw new HubError('internal', `unreachable: ${JSON.stringify(value)}`);
}
