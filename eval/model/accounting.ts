/**
 * Offline token accounting: what a turn costs in the tokenizer the surface's fixed cost uses
 * (o200k_base, engine/typegen/tokens.ts), counted as the API bills it: every turn reads the whole
 * request again (system prompt, every tool definition as JSON, every message so far), and writes
 * its own blocks. Text counts as its text; a tool_use as its name and its input as JSON; a
 * tool_result as its content. The API adds a few tokens of framing per block that this does not
 * count, the same in both arms.
 */
import { countTokens } from '../../engine/typegen/tokens.ts';
import type { AssistantBlock, Message, ModelRequest, ToolResultBlock, Usage } from './messages.ts';

function blockTokens(block: AssistantBlock | ToolResultBlock | { type: 'text'; text: string }): number {
  switch (block.type) {
    case 'text':
      return countTokens(block.text);
    case 'tool_use':
      return countTokens(block.name) + countTokens(JSON.stringify(block.input));
    case 'tool_result':
      return countTokens(block.content);
  }
}

const messageTokens = (message: Message) =>
  message.content.reduce((sum: number, block) => sum + blockTokens(block), 0);

/** What reading `request` costs: the definitions (system and tools) and the conversation so far. */
export function requestTokens(request: ModelRequest): number {
  return (
    definitionTokens(request) + request.messages.reduce((sum, message) => sum + messageTokens(message), 0)
  );
}

/** The fixed part of every turn: the system prompt and the tool definitions. */
export function definitionTokens(request: Pick<ModelRequest, 'system' | 'tools'>): number {
  return countTokens(request.system) + countTokens(JSON.stringify(request.tools));
}

/** The tokenizer's usage for one turn: reading `request`, writing `content`. */
export function offlineUsage(request: ModelRequest, content: readonly AssistantBlock[]): Usage {
  return {
    inputTokens: requestTokens(request),
    outputTokens: content.reduce((sum, block) => sum + blockTokens(block), 0),
  };
}
