/**
 * One-call code: the guest code of a run that calls one tool once, as `hub call` and a direct
 * tool (engine/surface/direct-tools.ts) run it, `return await ns.tool(JSON.parse("…"))`; and
 * its recognition, so a host knows a run whose code is nothing but that call (a one-call run:
 * no model's code waits to go on with its result, so the host itself resumes it once a person
 * decided, engine/runs/one-call-resume.ts).
 *
 * The input travels as a JSON string literal parsed in the guest, never as an object literal: a
 * `"__proto__"` key stays a key (an object literal would set the prototype), and U+2028/U+2029
 * are escaped so the literal is one line for every parser.
 */
import { ToolAddress } from './contracts/names.ts';
import { HubError } from './errors.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { utf8Length } from './pipeline/utf8.ts';

/** The most a call's input may take as UTF-8 JSON: what the sandbox lets one call's arguments take. */
export const CALL_INPUT_BYTES = DEFAULT_LIMITS.resultBytes;

/**
 * The most one-call code may take, in UTF-8 bytes: the input at CALL_INPUT_BYTES, escaped once
 * more as a string literal (at most 7 bytes for each, `\u0001` becoming `\\u0001`), and the call.
 */
export const ONE_CALL_CODE_BYTES = 7 * CALL_INPUT_BYTES + 4 * 1024;

/** A string as a JavaScript string literal (JSON's, with the two line separators escaped). */
const literal = (text: string) =>
  JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The guest code that calls one tool once: `return await ns.tool(JSON.parse("…"))`, with
 * `{ connection }` when one is named. Throws HubError('invalid_input') for anything that is not a
 * tool address, and for an input over CALL_INPUT_BYTES, so nothing but an address and JSON of a
 * call's size reaches the code.
 */
export function callCode(address: string, input: unknown, connection?: string): string {
  if (!ToolAddress.safeParse(address).success) {
    throw new HubError('invalid_input', `"${address}" is not a tool address (namespace.tool)`);
  }
  const json = JSON.stringify(input ?? {});
  const bytes = utf8Length(json, CALL_INPUT_BYTES + 1);
  if (bytes > CALL_INPUT_BYTES) {
    throw new HubError(
      'invalid_input',
      `the input to ${address} is over ${CALL_INPUT_BYTES.toLocaleString('en-US')} bytes of JSON, the most one tool call takes; nothing was called. Send less (a page, fewer items), or split it across calls.`,
    );
  }
  const options = connection ? `, ${JSON.stringify({ connection })}` : '';
  return `return await ${address}(JSON.parse(${literal(json)})${options});`;
}

const HEAD = /^return await ([a-z][a-z0-9_]{0,39}\.[A-Za-z_$][A-Za-z0-9_$]*)\(JSON\.parse\("/;

/**
 * The call one-call code makes, or undefined when `code` is anything else: it is read back, and
 * it is one-call code only when callCode makes exactly it again.
 */
export function oneCallOf(
  code: string,
): { address: string; input: unknown; connection?: string | undefined } | undefined {
  const head = HEAD.exec(code);
  if (!head?.[1]) return undefined;
  // The string literal ends at the first quote no backslash escapes.
  let end = head[0].length;
  while (end < code.length && code[end] !== '"') end += code[end] === '\\' ? 2 : 1;
  try {
    const input = JSON.parse(JSON.parse(code.slice(head[0].length - 1, end + 1)) as string) as unknown;
    const rest = code.slice(end + 1);
    const options = /^\), (\{.*\})\);$/.exec(rest)?.[1];
    const connection = options ? (JSON.parse(options) as { connection?: unknown }).connection : undefined;
    if (options !== undefined && typeof connection !== 'string') return undefined;
    const call = { address: head[1], input, connection: connection as string | undefined };
    return callCode(call.address, input, call.connection) === code ? call : undefined;
  } catch {
    return undefined;
  }
}
