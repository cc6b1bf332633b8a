/**
 * The `search` tool's input (spec: The MCP surface, search): `query` 0–200 characters (empty
 * lists), `namespace` optional, `limit` 1–25 with 8 by default. Bad input is a HubError
 * `invalid_input` whose message names each field at fault, what it got and what it takes.
 */
import { z } from 'zod';
import { HubError } from '../errors.ts';

/** Longest query, in characters. */
export const MAX_QUERY = 200;
/** Most hits one answer holds. */
export const MAX_LIMIT = 25;
/** Hits when `limit` is not given. */
export const DEFAULT_LIMIT = 8;

/** What a bad value was, short enough for an error message. */
const describe = (value: unknown): string =>
  typeof value === 'string' && value.length > 40
    ? `a ${value.length}-character string`
    : (JSON.stringify(value) ?? String(value));

/** The `search` tool's input schema. */
export const SearchInput = z.object(
  {
    query: z
      .string({ error: (issue) => `query must be a string; got ${describe(issue.input)}` })
      .max(MAX_QUERY, {
        error: (issue) =>
          `query is at most ${MAX_QUERY} characters; got ${describe(issue.input)}. Say what you want to do in a few words`,
      })
      .default(''),
    namespace: z
      .string({
        error: (issue) => `namespace must be a string such as "github"; got ${describe(issue.input)}`,
      })
      .max(100, { error: 'namespace is at most 100 characters' })
      .optional(),
    limit: z
      .number({ error: (issue) => `limit must be a number; got ${describe(issue.input)}` })
      .int({
        error: (issue) => `limit is a whole number from 1 to ${MAX_LIMIT}; got ${describe(issue.input)}`,
      })
      .min(1, {
        error: (issue) => `limit is a whole number from 1 to ${MAX_LIMIT}; got ${describe(issue.input)}`,
      })
      .max(MAX_LIMIT, {
        error: (issue) => `limit is a whole number from 1 to ${MAX_LIMIT}; got ${describe(issue.input)}`,
      })
      .default(DEFAULT_LIMIT),
  },
  { error: 'the input is an object such as { "query": "create an issue" }' },
);
export type SearchInput = z.infer<typeof SearchInput>;

/** Validates the `search` tool's arguments; throws HubError('invalid_input') naming every fault. */
export function parseSearchInput(input: unknown): SearchInput {
  const parsed = SearchInput.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const faults = parsed.error.issues.map((issue) => issue.message);
  throw new HubError('invalid_input', `search: ${faults.join('; ')}.`, { cause: parsed.error });
}
