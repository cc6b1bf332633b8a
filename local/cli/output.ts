/**
 * How commands speak: text for people, one JSON document with `--json`. Errors go to stderr
 * (or as `{ "error": … }` with --json) and become the process's exit code: 2 for bad input,
 * 1 for everything else. A HubError's message already says what to do next.
 */
import { isHubError } from '../../engine/errors.ts';

export interface GlobalOptions {
  json: boolean;
  /** False with --no-input: never prompt, fail with what to pass instead. */
  input: boolean;
}

export interface Output {
  readonly options: GlobalOptions;
  /** Prints `data` as JSON with --json, else `text`. */
  result(data: unknown, text: string): void;
  /** A line for a person on stderr (never mixed into --json output). */
  note(text: string): void;
}

export function createOutput(options: GlobalOptions): Output {
  return {
    options,
    result: (data, text) =>
      process.stdout.write(options.json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`),
    note: (text) => process.stderr.write(`${text}\n`),
  };
}

/** Reports an error the way the options ask and returns the exit code to use. */
export function reportError(error: unknown, options: Pick<GlobalOptions, 'json'>): number {
  const code = isHubError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  } else {
    process.stderr.write(`capabilities: ${message}\n`);
  }
  return code === 'invalid_input' ? 2 : 1;
}
