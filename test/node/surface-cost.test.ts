/**
 * The surface's fixed cost (spec: The MCP surface): the tool definitions and the server
 * instructions, as a real client receives them (`tools/list` plus `instructions`), counted in
 * o200k_base tokens, at most 1,000 (issue #35; the spec's target is 1,500). Beside it, what the 24 corpus servers cost loaded directly,
 * counted the same way (each server's `tools/list` answer as JSON, plus its instructions).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, it } from 'vitest';
import { createMcpHttpHandler } from '../../engine/surface/index.ts';
import { countTokens } from '../../engine/typegen/tokens.ts';
import { localWording } from '../../local/wording.ts';
import { corpus } from '../corpus.ts';

/** Tokens of one server's fixed cost: its tool list as JSON on the wire, and its instructions. */
const fixedCost = (tools: unknown[], instructions: string | undefined) =>
  countTokens(JSON.stringify(tools)) + countTokens(instructions ?? '');

async function surfaceCost(mode: 'legacy' | 'auto'): Promise<number> {
  const handler = createMcpHttpHandler({
    version: '0.1.0',
    wording: localWording,
    search: () => '',
    describe: () => '',
    execute: async () => ({ runId: 'run_1', status: 'completed', calls: [] }),
    resume: async () => ({ runId: 'run_1', status: 'completed', calls: [] }),
  });
  const client = new Client({ name: 'cost', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  try {
    const { tools } = await client.listTools();
    return fixedCost(tools, client.getInstructions());
  } finally {
    await client.close();
  }
}

it('costs at most 1,000 tokens of tool definitions and instructions, in either era', async () => {
  const legacy = await surfaceCost('legacy');
  const modern = await surfaceCost('auto');
  const direct = corpus.reduce((sum, source) => sum + fixedCost(source.tools, source.instructions), 0);
  const tools = corpus.reduce((sum, source) => sum + source.tools.length, 0);
  console.info(
    `fixed cost: ${legacy} tokens (2025 client), ${modern} (2026-07-28 client); ` +
      `the ${corpus.length} corpus servers loaded directly: ${direct} tokens for ${tools} tools ` +
      `(${(direct / modern).toFixed(0)}×)`,
  );
  expect(legacy).toBeLessThanOrEqual(1_000);
  expect(modern).toBeLessThanOrEqual(1_000);
  expect(corpus).toHaveLength(24);
  expect(direct).toBeGreaterThan(100 * modern);
});
