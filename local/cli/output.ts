/**
 * How commands speak: text for people, one JSON document with `--json`. Errors go to stderr
 * (or as `{ "error": … }` with --json) and become the process's exit code: 2 for bad input,
 * 1 for everything else. A HubError's message already says what to do next; its detail (a
 * source's command line or URL, for the person only) follows on the next line.
 *
 * Once a hub is open, everything the process prints passes the hub's scrubber (`scrubOutput`):
 * no secret the hub holds reaches the terminal, whichever source or file it came through. One
 * command runs per process, so the scrubber is the process's.
 */
import { isHubError } from '../../engine/errors.ts';
import type { Scrubber } from '../../engine/secrets/scrub.ts';

let scrubber: (() => Scrubber) | undefined;

/** From now on, everything this process prints (errors too) is scrubbed by `current()`. */
export function scrubOutput(current: () => Scrubber): void {
  scrubber = current;
}

/** `text` as this process may print it: scrubbed once a hub is open. */
export const scrubbed = (text: string): string => (scrubber ? scrubber().text(text) : text);

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
      process.stdout.write(scrubbed(options.json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`)),
    note: (text) => process.stderr.write(scrubbed(`${text}\n`)),
  };
}

/** Reports an error the way the options ask and returns the exit code to use. */
export function reportError(error: unknown, options: Pick<GlobalOptions, 'json'>): number {
  const code = isHubError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  const detail = isHubError(error) ? error.detail : undefined;
  if (options.json) {
    const body = { error: { code, message, ...(detail === undefined ? {} : { detail }) } };
    process.stdout.write(scrubbed(`${JSON.stringify(body, null, 2)}\n`));
  } else {
    const more = detail === undefined ? '' : `  ${detail}\n`;
    process.stderr.write(scrubbed(`capabilities: ${message}\n${more}`));
  }
  return code === 'invalid_input' ? 2 : 1;
}
