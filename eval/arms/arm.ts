/**
 * An arm: one way a model reaches the same sources. `code` is the hub's three tools; `direct` is
 * every stand-in's tools as their own tools, straight to the servers, as a harness loads MCP
 * servers today; `direct-needed` is the same with only the servers the task needs loaded (direct's
 * best case: a person who set up exactly those); `hub-direct` is the hub's direct-mode profile
 * (each tool its own, through the hub).
 * An arm gives the model its system prompt (the servers' instructions, as harnesses add them) and
 * tool definitions, maps the names a script uses to its own, and makes the calls, with the person
 * of the current task deciding what is asked.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ModelTool } from '../model/messages.ts';
import type { EvalTask, ToolReply } from '../task.ts';

export type ArmName = 'code' | 'direct' | 'direct-needed' | 'hub-direct';

export const ARM_NAMES: readonly ArmName[] = ['code', 'direct', 'direct-needed', 'hub-direct'];

export interface Arm {
  readonly name: ArmName;
  /** The system prompt and tools the model gets now (for the task begun last). */
  readonly system: string;
  readonly tools: readonly ModelTool[];
  /** The arm's tool name for a name a script uses (an address, or search/describe/execute). */
  nameFor(scriptName: string): string;
  /** Calls the arm's tool `name` (as the model named it). A name the arm lacks answers an error. */
  call(name: string, input: Record<string, unknown>): Promise<ToolReply>;
  /** Starts a task: its person decides from now on (and `direct-needed` shows its servers only). */
  begin(task: Pick<EvalTask, 'person' | 'sources'>): void;
  close(): Promise<void>;
}

/** A reply the model reads: the answer's text blocks, its error flag, its structured part. */
export function replyOf(result: CallToolResult | { content?: unknown; isError?: unknown }): ToolReply {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = blocks
    .map((block) =>
      typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string'
        ? block.text
        : JSON.stringify(block),
    )
    .join('\n');
  return textReply(
    text,
    result.isError === true,
    'structuredContent' in result ? result.structuredContent : undefined,
  );
}

export function textReply(text: string, isError: boolean, structured?: unknown): ToolReply {
  return {
    text,
    isError,
    json: <T>() => JSON.parse(text) as T,
    ...(structured === undefined ? {} : { structured }),
  };
}

/** The tool definition a model receives for an MCP tool named `name`. */
export function modelTool(
  name: string,
  tool: { description?: string | undefined; inputSchema: unknown },
): ModelTool {
  return {
    name,
    description: tool.description ?? '',
    input_schema: tool.inputSchema as Record<string, unknown>,
  };
}
