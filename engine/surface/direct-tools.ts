/**
 * Direct mode (spec: Concepts, Profile): each tool a profile shows is its own MCP tool, named by
 * its address (`github.create_issue`), with the upstream's own input schema, output schema,
 * title, description and annotations as the hub stored them. Nothing about the call is direct
 * but its shape: a call is a one-call run (`return await ns.tool(input)`, engine/address.ts)
 * through the same path as `execute` (run-flow.ts): policy, approvals in the client's prompt,
 * the journal, scrubbing, handles for large results.
 *
 * Schemas are served as stored and not checked by the hub (the upstream checks its own input, as
 * it does for a call from code). The tool's answer is the run's result, whole (a large one read
 * back from the run's blob, not cut to the envelope's inline budget): its value as text and,
 * where the tool declares an output schema and the value is an object, as structuredContent. A
 * completed call never answers an error. A run that did not complete
 * (waits for a person, failed) answers an `isError` result whose one line says what happened and
 * what the person does (summary.ts).
 *
 * The list follows the store: when the host watches (SurfaceDirect.watch, the local stdio
 * server), a change to the profile's visible tools made by any process re-registers the tools
 * that changed and sends `notifications/tools/list_changed`.
 */
import type {
  InputRequiredResult,
  McpServer,
  RegisteredTool,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { HostWording } from '../wording.ts';
import { directSummaryLine } from './summary.ts';
import type { ToolErrorResult } from './tool-errors.ts';
import { errorResult } from './tool-errors.ts';

/** One visible tool as direct mode serves it. */
export interface DirectTool {
  address: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?: Record<string, unknown> | undefined;
}

/** What a direct-mode surface needs from its hub (engine-deps.ts fills it in from the profile's Lookup). */
export interface SurfaceDirect {
  /** The profile's visible tools now. */
  tools(): readonly DirectTool[];
  /** Calls one tool as a new one-call run. */
  call(address: string, args: Record<string, unknown>): Promise<ExecuteEnvelope>;
  /**
   * The value a completed run returned, whole: not the envelope's, cut to the inline budget, and
   * with a large result of the run read back from its blob (the model has no `hub.read` here).
   */
  result(runId: string): Promise<unknown>;
  /**
   * Calls `changed` whenever the visible tools may have changed (a source added, refreshed or
   * removed, the profile edited: by any process); returns how to stop. Absent: never.
   */
  watch?(changed: () => void): () => void;
}

/** Runs one call's flow: a new run, or a retried call with a person's answers (run-flow.ts). */
export type RunFlow = (ctx: ServerContext, start: () => Promise<ExecuteEnvelope>) => Promise<FlowAnswer>;

/** A flow's answer: the run's envelope, or the client prompt asking a person about it. */
export type FlowAnswer =
  | { kind: 'envelope'; envelope: ExecuteEnvelope }
  | { kind: 'prompt'; result: InputRequiredResult };

type DirectResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
};

/** A JSON Schema served as it is, with nothing checked by the hub (the upstream checks its own). */
function asIs(schema: Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'capabilities',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The tool's answer for a run's envelope. A completed run answers its whole value, never an
 * error (the call happened; an error would have the model call again): as text, and as
 * structuredContent only when the tool declares an output schema and the value is an object (an
 * upstream may answer a 204 or a list where its schema says object; a client would refuse a
 * structuredContent its schema rejects, so such a value goes as text alone).
 */
async function directResult(
  tool: DirectTool,
  envelope: ExecuteEnvelope,
  direct: SurfaceDirect,
  wording: HostWording,
): Promise<DirectResult | ToolErrorResult> {
  if (envelope.status !== 'completed') return errorResult(directSummaryLine(envelope, wording));
  const value = await direct.result(envelope.runId);
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  const content: DirectResult['content'] = [{ type: 'text', text }];
  return tool.outputSchema !== undefined && isObject(value)
    ? { content, structuredContent: value }
    : { content };
}

const keyOf = (tool: DirectTool) => JSON.stringify(tool);

/** Registers the direct tools on `server`, and keeps them current when the host watches. */
export function registerDirectTools(
  server: McpServer,
  direct: SurfaceDirect,
  flow: RunFlow,
  guard: <T>(tool: string, body: () => Promise<T>) => Promise<T | ToolErrorResult>,
  wording: HostWording,
): void {
  const registered = new Map<string, { key: string; handle: RegisteredTool }>();
  const register = (tool: DirectTool) =>
    server.registerTool(
      tool.address,
      {
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: asIs(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchema: asIs(tool.outputSchema) } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      },
      (args: Record<string, unknown>, ctx: ServerContext) =>
        guard(tool.address, async () => {
          const answer = await flow(ctx, () => direct.call(tool.address, args ?? {}));
          return answer.kind === 'envelope'
            ? directResult(tool, answer.envelope, direct, wording)
            : answer.result;
        }),
    );
  const sync = (): void => {
    const now = new Map(direct.tools().map((tool) => [tool.address, tool]));
    for (const [address, { key, handle }] of registered) {
      const tool = now.get(address);
      if (tool && keyOf(tool) === key) continue;
      handle.remove();
      registered.delete(address);
    }
    for (const [address, tool] of now) {
      if (!registered.has(address)) registered.set(address, { key: keyOf(tool), handle: register(tool) });
    }
  };
  // The SDK installs tools/list and tools/call with the first tool registered: a profile that shows
  // none yet still answers an empty list (and the tools that appear later), so one is registered
  // and removed before the server connects.
  register({ address: 'capabilities.none', inputSchema: { type: 'object' } }).remove();
  sync();
  // Registering and removing a tool on a connected server sends notifications/tools/list_changed
  // (the SDK's own); a server whose client has gone stops watching.
  let connected = false;
  const stop = direct.watch?.(() => {
    if (!server.isConnected()) {
      if (connected) stop?.();
      return;
    }
    connected = true;
    sync();
  });
}
