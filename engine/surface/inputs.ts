/**
 * The input schemas of the three tools, as zod: the SDK publishes them as JSON Schema in
 * `tools/list` and validates every `tools/call` against them before a handler runs, answering a
 * bad call with an `isError` result that carries these messages, so the model can correct itself.
 * The SDK prefixes each message with its field (`limit: must be…`), so messages start after it.
 *
 * `search.query` takes 0–200 characters: empty lists a namespace (the spec's table says 1–200 but
 * also "Empty lists a namespace"). `execute` takes exactly one of `code` or `resume`; JSON Schema
 * shows both as optional (a root `oneOf` confuses clients that want a plain object), and the
 * refinement says which to send. `code` is capped at 64 K characters here; the pipeline then holds
 * the spec's limit in UTF-8 bytes (any text over 64 K characters is over 64 KB too).
 */
import { z } from 'zod';
import { DEFAULT_LIMITS } from '../limits.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY } from '../search/index.ts';
import { FIELD } from './wording.ts';

const limitError = `must be a whole number from 1 to ${MAX_LIMIT}`;

/** `search`: { query, namespace?, limit = 8 }. */
export const SearchArgs = z.object({
  query: z
    .string({ error: 'must be a string: what you want to do, or "" to list a namespace' })
    .max(MAX_QUERY, { error: `must be at most ${MAX_QUERY} characters; say what you want in a few words` })
    .describe(FIELD.query),
  namespace: z
    .string({ error: 'must be a string such as "github"' })
    .max(100, { error: 'must be at most 100 characters' })
    .optional()
    .describe(FIELD.namespace),
  limit: z
    .number({ error: limitError })
    .int({ error: limitError })
    .min(1, { error: limitError })
    .max(MAX_LIMIT, { error: limitError })
    .default(DEFAULT_LIMIT),
});
export type SearchArgs = z.infer<typeof SearchArgs>;

const targetsError = 'must be a list of 1 to 10 strings, e.g. ["github.createIssue"]';

/** `describe`: { targets: 1–10 addresses, namespaces or type names }. */
export const DescribeArgs = z.object({
  targets: z
    .array(
      z
        .string({ error: 'must be a string' })
        .min(1, { error: 'must not be empty' })
        .max(200, { error: 'must be at most 200 characters' }),
      {
        error: targetsError,
      },
    )
    .min(1, { error: targetsError })
    .max(10, { error: targetsError })
    .describe(FIELD.targets),
});
export type DescribeArgs = z.infer<typeof DescribeArgs>;

/** The most characters `code` may have (the spec's `codeBytes`, 64 KB of UTF-8, bounds it). */
export const MAX_CODE_CHARS = DEFAULT_LIMITS.codeBytes;

/** `execute`: exactly one of { code } or { resume }. */
export const ExecuteArgs = z
  .object({
    code: z
      .string({ error: 'must be a string of JavaScript' })
      .max(MAX_CODE_CHARS, {
        error: `is over ${MAX_CODE_CHARS.toLocaleString('en-US')} bytes, the most one execute takes`,
      })
      .optional()
      .describe(FIELD.code),
    resume: z
      .string({ error: 'must be a runId string from an earlier result' })
      .min(1, { error: 'must be a runId from an earlier result' })
      .max(100, { error: 'must be a runId from an earlier result' })
      .optional()
      .describe(FIELD.resume),
  })
  .refine((args) => (args.code === undefined) !== (args.resume === undefined), {
    error: (issue) =>
      `send exactly one of code (a program to run) or resume (the runId of a run a person has decided on); got ${
        (issue.input as { code?: unknown }).code === undefined ? 'neither' : 'both'
      }`,
  });
export type ExecuteArgs = z.infer<typeof ExecuteArgs>;
