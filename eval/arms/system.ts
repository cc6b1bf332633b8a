/**
 * The system prompt every arm gives the model: the same short brief, then each MCP server's
 * instructions, as harnesses add them to the system prompt.
 */
export const BRIEF =
  "You are a person's agent. Do what they ask with the tools you have, without asking them " +
  'questions; when the work is done, tell them in a few sentences what you did and found.';

export function systemPrompt(instructions: readonly (string | undefined)[]): string {
  const parts = instructions.filter((text): text is string => typeof text === 'string' && text.length > 0);
  return [BRIEF, ...parts].join('\n\n');
}
