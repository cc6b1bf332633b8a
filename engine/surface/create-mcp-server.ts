/**
 * The MCP surface: one McpServer factory that every transport uses (stdio, loopback HTTP, the
 * Worker's /mcp), for one profile. In code mode it registers exactly three tools, `search`, `describe` and `execute`, with the
 * spec's descriptions, zod input schemas, annotations and, for `execute`, the ExecuteEnvelope as
 * output schema; and the server instructions. It depends on no runtime: the hub reaches it only
 * through `SurfaceDeps`.
 *
 * Annotations (MCP hints describe what a tool may do, not what policy lets it do):
 * - `search`, `describe`: read-only and idempotent, and closed-world (they read the hub's own
 *   index, never an upstream).
 * - `execute`: not read-only, open world, not idempotent (running code twice may post twice),
 *   and destructive: the code may call any of the user's tools, writes included. Every write
 *   still asks a person through the hub's policy; the hint only tells the client the truth, so a
 *   client that auto-runs read-only tools never auto-runs `execute`.
 *
 * In direct mode (direct-tools.ts) each tool the profile shows is an MCP tool of its own, whose
 * call is a one-call run through the same flow as `execute`.
 *
 * Results: `search` and `describe` answer plain text. `execute` answers the envelope as
 * structuredContent plus one compact line of text (summary.ts), or, when the run waits for a
 * person and the client declared form elicitation, an `input_required` prompt (approvals.ts).
 * Errors are `isError` results (tool-errors.ts). Nothing here records a decision (invariant I2):
 * a person's answer in the client's own prompt counts only through the host's `prompt`, which
 * verifies the signed state it issued; `resume` only continues a run.
 *
 * Skills (spec: M2 "skills over MCP"): served as the MCP Skills extension says
 * (skill-resources.ts): each file a resource `skill://<name>/<path>`, `skills/list` and
 * `skills/get`, and resources/list naming each SKILL.md. The list is read on every request, so a
 * skill added meanwhile is listed without a notification.
 */
import { type InputRequiredResult, McpServer } from '@modelcontextprotocol/server';
import { type ExecuteEnvelope, ExecuteEnvelope as ExecuteEnvelopeSchema } from '../contracts/envelope.ts';
import { CALL_INPUT_BYTES } from '../one-call.ts';
import type { HostWording } from '../wording.ts';
import {
  answered,
  type PromptFlow,
  promptFor,
  type SurfacePages,
  type SurfacePrompt,
  withPage,
} from './approvals.ts';
import { type RunFlow, registerDirectTools, type SurfaceDirect } from './direct-tools.ts';
import { DescribeArgs, ExecuteArgs, type SearchArgs, SearchArgs as SearchArgsSchema } from './inputs.ts';
import { attachSkills, type SurfaceSkills } from './skill-resources.ts';
import { summaryLine } from './summary.ts';
import { errorResult, type ToolErrorResult, toolError } from './tool-errors.ts';
import { onTheWire } from './wire-schema.ts';
import { DESCRIBE_DESCRIPTION, EXECUTE_DESCRIPTION, INSTRUCTIONS, SEARCH_DESCRIPTION } from './wording.ts';

/** The most elements a direct tool's input may hold: as many as CALL_INPUT_BYTES of JSON can. */
const DIRECT_INPUT_ELEMENTS = CALL_INPUT_BYTES / 2;

/** What the surface needs from a hub; each host fills it in (see engine-deps.ts for the engine's). */
export interface SurfaceDeps {
  /** The hub's version, reported as the server's. */
  version: string;
  /** The plain-text answer of `search`; throws HubError('invalid_input') on bad input. */
  search(input: SearchArgs): string | Promise<string>;
  /** The declarations `describe` answers; throws HubError on bad targets. */
  describe(targets: readonly string[]): string | Promise<string>;
  /** Runs new code as a new run. */
  execute(code: string): Promise<ExecuteEnvelope>;
  /** Continues a run (or reports how it ended); throws HubError('not_found') for an unknown id. */
  resume(runId: string): Promise<ExecuteEnvelope>;
  /**
   * Approvals in the client's own prompt, for clients that declared form elicitation. Injected
   * by the host (engine/runs/client-prompt.ts); without it every client gets awaiting_approval.
   */
  prompt?: SurfacePrompt;
  /** The host's approval page, opened for a waiting run the client cannot ask about (local hub). */
  pages?: SurfacePages;
  /**
   * Direct mode (direct-tools.ts): the profile's tools, each its own MCP tool, instead of search,
   * describe and execute. Absent: code mode.
   */
  direct?: SurfaceDirect;
  /** The hub's skills, served as the Skills extension says (skill-resources.ts); absent: none. */
  skills?: SurfaceSkills;
  /** Where errors the model is not told about go, with their detail (the host scrubs and logs). */
  log?(message: string, error: unknown): void;
  /** How a person acts on this host, for the lines the model reads (deciding, adding a connection). */
  wording: HostWording;
}

/** The server's name in `serverInfo`. */
export const SERVER_NAME = 'capabilities';

type TextResult = { content: { type: 'text'; text: string }[] };
type ExecuteResult = TextResult & { structuredContent: ExecuteEnvelope };

const text = (value: string): TextResult => ({ content: [{ type: 'text', text: value }] });
const envelopeResult = (envelope: ExecuteEnvelope, wording: HostWording): ExecuteResult => ({
  ...text(summaryLine(envelope, wording)),
  structuredContent: envelope,
});

/**
 * A new McpServer with the three tools (code mode) or the profile's own tools (direct mode).
 * Cheap: build one per connection or per HTTP request.
 */
export function createMcpServer(deps: SurfaceDeps): McpServer {
  const log = deps.log ?? (() => {});
  const guard: Guard = async <T>(tool: string, body: () => Promise<T>): Promise<T | ToolErrorResult> => {
    try {
      return await body();
    } catch (error) {
      return toolError(tool, error, log);
    }
  };

  const server = new McpServer(
    { name: SERVER_NAME, version: deps.version },
    {
      instructions: INSTRUCTIONS,
      // The three tools never change, so there is no list to watch; a direct-mode profile's list
      // follows its sources, and says when it changed.
      capabilities: { tools: { listChanged: deps.direct?.watch !== undefined } },
      // Our inputs have a dozen members at most; a flood of them is refused before validation. A
      // direct tool's input is the upstream's, which checks its own: it may hold what one call's
      // arguments may take in the sandbox (CALL_INPUT_BYTES of JSON, two bytes an element at least).
      maxToolInputElements: deps.direct ? DIRECT_INPUT_ELEMENTS : 256,
      // A requestState comes back through the client: the hub's prompt checks it before any tool
      // runs, and the SDK answers a refused one with -32602 (the reason goes to onerror only).
      // Resolving undefined keeps the raw state for the tool, which verifies it again to record.
      requestState: {
        verify: async (state: string): Promise<undefined> => {
          if (!deps.prompt) throw new Error('this hub issued no request state');
          await deps.prompt.check(state);
          return undefined;
        },
      },
    },
  );

  // One flow for every call that runs code, execute's and a direct tool's alike: a retried call
  // carries a person's answers (record them, resume that run); a new one starts its run. A run
  // that waits for a person is asked about in the client's prompt when it can show one.
  const flow: RunFlow = async (ctx, start) => {
    const prompt: PromptFlow = { prompt: deps.prompt, server: server.server, ctx, resume: deps.resume };
    const state = ctx.mcpReq.requestState<unknown>();
    let envelope: ExecuteEnvelope;
    if (typeof state === 'string') {
      const retried = await answered(prompt, state);
      envelope = retried.envelope;
      if (!retried.askAgain) return { kind: 'envelope', envelope };
    } else envelope = await start();
    const prompted = await promptFor(prompt, envelope);
    if (prompted) return { kind: 'prompt', result: prompted };
    return { kind: 'envelope', envelope: await withPage(deps.pages, envelope, log) };
  };

  if (deps.direct) registerDirectTools(server, deps.direct, flow, guard, deps.wording);
  else registerCodeTools(server, deps, flow, guard);
  if (deps.skills) attachSkills(server, deps.skills, (message) => log(message, undefined));
  return server;
}

type Guard = <T>(tool: string, body: () => Promise<T>) => Promise<T | ToolErrorResult>;

/** Code mode: the three tools. */
function registerCodeTools(server: McpServer, deps: SurfaceDeps, flow: RunFlow, guard: Guard): void {
  server.registerTool(
    'search',
    {
      description: SEARCH_DESCRIPTION,
      inputSchema: onTheWire(SearchArgsSchema),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => guard('search', async () => text(await deps.search(args))),
  );

  server.registerTool(
    'describe',
    {
      description: DESCRIBE_DESCRIPTION,
      inputSchema: onTheWire(DescribeArgs),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ targets }) => guard('describe', async () => text(await deps.describe(targets))),
  );

  server.registerTool(
    'execute',
    {
      description: EXECUTE_DESCRIPTION,
      inputSchema: onTheWire(ExecuteArgs),
      outputSchema: onTheWire(ExecuteEnvelopeSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ({ code, resume }, ctx) =>
      guard('execute', async (): Promise<ExecuteResult | InputRequiredResult | ToolErrorResult> => {
        const retried = typeof ctx.mcpReq.requestState<unknown>() === 'string';
        let start: () => Promise<ExecuteEnvelope>;
        if (retried) start = () => Promise.reject(new Error('unreachable: a retried call resumes its run'));
        else if (code !== undefined && resume === undefined) start = () => deps.execute(code);
        else if (resume !== undefined && code === undefined) start = () => deps.resume(resume);
        else return errorResult('invalid_input: send exactly one of code or resume');
        const answer = await flow(ctx, start);
        return answer.kind === 'envelope' ? envelopeResult(answer.envelope, deps.wording) : answer.result;
      }),
  );
}
