/**
 * Every word the model reads before it calls a tool: the server instructions and the three tool
 * descriptions (spec: The MCP surface). The descriptions are the spec's draft, verbatim, but for
 * how `search` asks to be queried (the action and the kind of service, issue #35: the index leans
 * on both, engine/search/service-kinds.ts), and one sentence of `execute` on large results (M2's
 * handles, which the draft predates: code that does not know of `hub.read` cannot use a handle,
 * and a handle is readable only in its own run); they change only with evidence from the eval
 * suite. Together with the input and output schemas they are the surface's fixed cost, held to 1,000 o200k tokens by test/node/surface-cost.test.ts.
 *
 * Nothing here names a URL or a token: the model never gets either (spec: Approvals over MCP).
 */

/** The server's `instructions`: the search → describe → execute loop, in a few lines. */
export const INSTRUCTIONS = [
  "This server reaches all of the user's tools through code: search finds them, describe gives their TypeScript types, execute runs JavaScript that calls them (`await namespace.tool(input)`), several sources in one program.",
  'When execute says a person must decide, tell the user, then call execute with { "resume": "<runId>" } once they have.',
].join('\n');

/** The `search` tool (spec: The MCP surface, search). */
export const SEARCH_DESCRIPTION =
  'Find the user\'s tools and skills: say the action and the kind of service, for example "create an issue in the GitHub tracker" or "read recent messages in team chat". Returns tool addresses with one-line TypeScript signatures, best match first. Read full types with `describe` before writing code. Pass `namespace` to search or list one source.';

/** The `describe` tool (spec: The MCP surface, describe). */
export const DESCRIBE_DESCRIPTION =
  'Get exact TypeScript declarations for tools: an address (`github.createIssue`), a whole namespace (`github`, budget permitting), or a type named in an earlier declaration (`github.Issue`). Write `execute` code against these types.';

/** The `execute` tool (spec: The MCP surface, execute). */
export const EXECUTE_DESCRIPTION =
  'Run JavaScript in a sandbox where each of the user\'s sources is a global object of async functions: `await github.createIssue({ owner, repo, title })`. TypeScript annotations are allowed and stripped. Write the body of an async function and `return` what you need; run independent calls in parallel with `Promise.all`. A result over 64 KB arrives as `{ handle, bytes, preview }`: read the part you need in the same code with `await hub.read(handle, { path: "items[0].title" })` or `{ offset, length }`. There is no network or filesystem besides these functions. If a call needs the user\'s approval or a connection, the result says so and a page opens on the user\'s screen; tell the user, then continue with `{ "resume": "<runId>" }` after they decide. Never ask the user for passwords or tokens in chat.';

/** Field descriptions: short, since each one is paid for on every request. */
export const FIELD = {
  query: 'The action and the kind of service. Empty lists the namespace.',
  namespace: 'One source to search or list, e.g. "github".',
  targets: 'Addresses, namespaces or type names.',
  code: 'The body of an async function.',
  resume: 'A runId from an earlier result, once a person has decided.',
} as const;
