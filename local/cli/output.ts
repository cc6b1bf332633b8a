/**
 * How commands speak: text for people, one JSON document with `--json`. Errors go to stderr
 * (or as `{ "error": … }` with --json) and become the process's exit code: 2 for bad input,
 * 1 for everything else. A HubError's message already says what to do next; its detail (a
 * source's command line or URL, for the person only) follows on the next line.
 *
 * Once a hub is open, everything the process prints passes the hub's scrubber (`scrubOutput`):
 * no secret the hub holds reaches the terminal, whichever source or file it came through. One
 * command runs per process, so the scrubber is the process's.
 *
 * Then nothing we print drives the terminal (engine/inert.ts): every text is made inert here,
 * whole, keeping its line breaks; JSON gets what JSON.stringify leaves raw escaped; an error
 * message and its detail are one inert line each. Fields that could forge a line of ours (a log
 * line, a summary, a name) are made inert in one-line form where the text is built.
 */
import { isHubError } from '../../engine/errors.ts';
import { inertJson, inertLine, inertText } from '../../engine/inert.ts';
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

/**
 * What a command prints with --json: always one object, never an array or a bare value, so a
 * field can be added later without breaking a script (a list is `{ "runs": [...] }`).
 */
export type JsonObject<T extends object> = T & (T extends readonly unknown[] ? never : unknown);

export interface Output {
  readonly options: GlobalOptions;
  /** Prints `data` as JSON with --json, else `text`; scrubbed, then made inert. */
  result<T extends object>(data: JsonObject<T>, text: string): void;
  /** A line for a person on stderr (never mixed into --json output); scrubbed, then made inert. */
  note(text: string): void;
}

/** `data` as pretty JSON, scrubbed, with nothing in it a terminal would act on. */
function json(data: unknown): string {
  return inertJson(scrubbed(JSON.stringify(data, null, 2) ?? 'null'));
}

export function createOutput(options: GlobalOptions): Output {
  return {
    options,
    result: (data, text) =>
      process.stdout.write(`${options.json ? json(data) : inertText(scrubbed(text))}\n`),
    note: (text) => process.stderr.write(`${inertText(scrubbed(text))}\n`),
  };
}

/** Reports an error the way the options ask and returns the exit code to use. */
export function reportError(error: unknown, options: Pick<GlobalOptions, 'json'>): number {
  const code = isHubError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  const detail = isHubError(error) ? error.detail : undefined;
  if (options.json) {
    process.stdout.write(
      `${json({ error: { code, message, ...(detail === undefined ? {} : { detail }) } })}\n`,
    );
  } else {
    const more = detail === undefined ? '' : `  ${inertLine(scrubbed(detail))}\n`;
    process.stderr.write(`capabilities: ${inertLine(scrubbed(message))}\n${more}`);
  }
  return code === 'invalid_input' ? 2 : 1;
}
