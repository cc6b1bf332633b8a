/**
 * The conversation between the eval and a model, in the Messages API's shapes (what the live
 * adapter sends as is, what a transcript records, what the accounting counts): a system prompt,
 * the arm's tool definitions, and turns of text, tool_use and tool_result blocks.
 */

/** A tool definition as the model receives it. */
export interface ModelTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

export type AssistantBlock = TextBlock | ToolUseBlock;

export type Message =
  | { role: 'user'; content: (TextBlock | ToolResultBlock)[] }
  | { role: 'assistant'; content: AssistantBlock[] };

/** One request: what the model reads this turn. */
export interface ModelRequest {
  system: string;
  tools: readonly ModelTool[];
  messages: readonly Message[];
}

/** Tokens of one turn: the API's figures live, the tokenizer's offline (accounting.ts). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** One turn of the model: its blocks, why it stopped, and what the turn cost. */
export interface ModelTurn {
  content: AssistantBlock[];
  stopReason: 'tool_use' | 'end_turn' | 'max_tokens' | 'other';
  usage: Usage;
}

/** A model behind one interface: live (Anthropic), scripted (best path), or replayed (a transcript). */
export interface ModelAdapter {
  /** Names the model in reports and transcripts. */
  readonly model: string;
  turn(request: ModelRequest): Promise<ModelTurn>;
  /** Ends the conversation (a scripted model's script must have finished). */
  close?(): void;
}
