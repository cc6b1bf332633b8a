/**
 * The MCP surface (spec: The MCP surface): three tools, `search`, `describe`, `execute`, and the
 * server instructions, served by one McpServer factory over every transport.
 *
 * ```ts
 * const deps = engineSurfaceDeps({ lookup, runs: async () => runs, version });
 * serveStdio(() => createMcpServer(deps));            // local/mcp-stdio.ts
 * createApp({ …, mcp: createMcpHttpHandler(deps) });  // /mcp on the one Hono app
 * ```
 *
 * Files: create-mcp-server.ts (the factory and SurfaceDeps), inputs.ts (input schemas),
 * wording.ts (everything the model reads), summary.ts (execute's line of text), tool-errors.ts
 * (errors at the edge), approvals.ts (a person's decision in the client's own prompt),
 * engine-deps.ts (deps from Lookup and Runs), http.ts (the fetch handler), direct-tools.ts (a
 * direct-mode profile: each visible tool its own MCP tool, each call a one-call run).
 */
export { declaresFormElicitation, promptResult, type SurfacePages, type SurfacePrompt } from './approvals.ts';
export { createMcpServer, SERVER_NAME, type SurfaceDeps } from './create-mcp-server.ts';
export type { DirectTool, SurfaceDirect } from './direct-tools.ts';
export {
  type EngineSurface,
  engineSurfaceDeps,
  type SurfaceLookup,
  type SurfaceRuns,
} from './engine-deps.ts';
export { createMcpHttpHandler, MAX_REQUEST_BYTES } from './http.ts';
export { DescribeArgs, ExecuteArgs, MAX_CODE_CHARS, SearchArgs } from './inputs.ts';
export { summaryLine } from './summary.ts';
export { INTERNAL_MESSAGE, toolError } from './tool-errors.ts';
export { INSTRUCTIONS } from './wording.ts';
