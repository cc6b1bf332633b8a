/**
 * The live model: the official Anthropic SDK (`ANTHROPIC_API_KEY` from the environment), one
 * Messages API request per turn with the arm's system prompt and tools, no prompt caching, so the
 * usage the API reports is what a turn reads (input, including any cache the API applied on its
 * own) and writes (output).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { AssistantBlock, ModelAdapter, ModelRequest, ModelTurn } from './messages.ts';

const MAX_TOKENS = 4096;

export class AnthropicAdapter implements ModelAdapter {
  private readonly client: Anthropic;
  readonly model: string;

  constructor(model: string) {
    this.model = model;
    if (!process.env.ANTHROPIC_API_KEY) {
      throw new Error(
        '--live needs ANTHROPIC_API_KEY in the environment (or run --offline for the scripted bound)',
      );
    }
    this.client = new Anthropic();
  }

  async turn(request: ModelRequest): Promise<ModelTurn> {
    const response = await this.client.messages.create({
      model: this.model,
      max_tokens: MAX_TOKENS,
      system: request.system,
      tools: request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: { type: 'object' as const, ...tool.input_schema },
      })),
      messages: request.messages as Anthropic.MessageParam[],
    });
    const content: AssistantBlock[] = [];
    for (const block of response.content) {
      if (block.type === 'text') content.push({ type: 'text', text: block.text });
      else if (block.type === 'tool_use')
        content.push({
          type: 'tool_use',
          id: block.id,
          name: block.name,
          input: (block.input ?? {}) as Record<string, unknown>,
        });
    }
    const usage = response.usage;
    return {
      content,
      stopReason:
        response.stop_reason === 'tool_use' ||
        response.stop_reason === 'end_turn' ||
        response.stop_reason === 'max_tokens'
          ? response.stop_reason
          : 'other',
      usage: {
        inputTokens:
          usage.input_tokens +
          (usage.cache_creation_input_tokens ?? 0) +
          (usage.cache_read_input_tokens ?? 0),
        outputTokens: usage.output_tokens,
      },
    };
  }
}
