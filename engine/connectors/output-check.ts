/**
 * Whether a tool's answer keeps to the output schema the tool declared, as the hub pinned it
 * (issue #38). Servers drift from their own schemas; the answer of a call that was made is still
 * its answer, so a mismatch is never a failure: the guest gets the answer (its structured
 * content, else its text) and the run a notice naming the mismatch, while `describe` keeps the
 * declared type. Checked with the MCP SDK's @cfworker/json-schema validator on both hosts (it
 * interprets schemas, where Ajv generates code a Worker may not run), so both say the same;
 * compiled once per tool contract.
 *
 * A schema the validator cannot compile says nothing here: the tool is served as declared. The
 * check is advice, so it leaves out what could make it cost more than the call: a schema's regular
 * expressions (`pattern`, `patternProperties`), which a server could write to backtrack for ever
 * on an answer it also writes. The validator's message quotes the answer, so it is scrubbed before
 * it is cut: a secret cut in two would pass the scrubber.
 */
import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/client';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';
import type { ManifestTool } from '../contracts/sources.ts';
import type { McpCallResult } from './tool-result.ts';

type Check = (value: unknown) => string | undefined;

/** Compiled checks by tool address and contract digest; a changed contract compiles anew. */
const compiled = new Map<string, Check | null>();
const MAX_COMPILED = 512;
/** The most of a validator's message a notice quotes. */
const MESSAGE_CHARS = 300;
const validator = new CfWorkerJsonSchemaValidator();

/**
 * What is wrong with `result` against `tool`'s declared output schema, as one sentence for the
 * run's notices, its quote of the answer passed through `scrub`; undefined when it keeps to it,
 * declares none, or is an error result.
 */
export function outputMismatch(
  tool: ManifestTool,
  result: McpCallResult,
  scrub: (text: string) => string,
): string | undefined {
  if (tool.outputSchema === undefined || result.isError === true) return undefined;
  const passedOn = 'the call was made, and its answer is passed on as it came';
  if (result.structuredContent === undefined) {
    return `${tool.address} declares an output schema but answered without structured content; ${passedOn}`;
  }
  const check = checkFor(tool);
  const problem = check?.(result.structuredContent);
  if (problem === undefined) return undefined;
  const clean = scrub(problem);
  const said = clean.length > MESSAGE_CHARS ? `${clean.slice(0, MESSAGE_CHARS)}…` : clean;
  return `${tool.address} answered with structured content that does not match its declared output schema (${said}); ${passedOn}`;
}

function checkFor(tool: ManifestTool): Check | undefined {
  const key = `${tool.address}\u0000${tool.contract}`;
  const known = compiled.get(key);
  if (known !== undefined) return known ?? undefined;
  let check: Check | null;
  try {
    // A plain copy: the store hands out schemas whose objects have no prototype, which the
    // validator does not read as schemas.
    const schema = JSON.parse(JSON.stringify(tool.outputSchema), withoutPatterns) as JsonSchemaType;
    const standard = fromJsonSchema(schema, validator)['~standard'];
    check = (value) => {
      try {
        const verdict = standard.validate(value);
        if (verdict instanceof Promise) return undefined;
        return verdict.issues ? verdict.issues.map((issue) => issue.message).join('; ') : undefined;
      } catch {
        // A validator that fails on a value says nothing of it.
        return undefined;
      }
    };
  } catch {
    check = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, check);
  return check ?? undefined;
}

/**
 * JSON.parse's reviver: drops the `pattern` keyword (a string; a property named `pattern` is a
 * schema, an object, and stays) and `patternProperties` (see the top of this file).
 */
function withoutPatterns(key: string, value: unknown): unknown {
  if (key === 'pattern' && typeof value === 'string') return undefined;
  return key === 'patternProperties' ? undefined : value;
}
