/**
 * The Worker's /mcp in workerd: the official v2 client in both eras, through the Worker's
 * fetch with the token; the three tools answered by the HubObject; `execute` running in a
 * Worker Loader isolate with no network; errors at the edge as protocol-correct results.
 */
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { WORKERS_TEST_TOKEN } from './token.ts';
import { worker, workerTransport } from './worker-client.ts';

async function withClient<T>(era: 'legacy' | 'auto', body: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'worker-e2e', version: '1.0.0' }, { versionNegotiation: { mode: era } });
  await client.connect(workerTransport());
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;
const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe("the Worker's /mcp", () => {
  for (const era of ['auto', 'legacy'] as const) {
    it(`serves the three tools to a ${era === 'auto' ? '2026-07-28' : '2025-era'} client`, async () => {
      await withClient(era, async (client) => {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
          'search',
          'describe',
          'execute',
        ]);
        const run = envelopeOf(
          await client.callTool({ name: 'execute', arguments: { code: 'console.log("hi"); return 6 * 7' } }),
        );
        expect(run.status).toBe('completed');
        expect(run.result).toBe(42);
        expect(run.logs).toEqual(['hi']);
      });
    });
  }

  it('runs code in an isolate that has no network', async () => {
    await withClient('auto', async (client) => {
      const run = envelopeOf(
        await client.callTool({
          name: 'execute',
          arguments: {
            // hub.search crosses the bridge into the HubObject (route `hub`) and back.
            code: 'const found = await hub.search("create an issue"); return { fetch: typeof fetch, connect: typeof connect, found: typeof found }',
          },
        }),
      );
      expect(run.result).toEqual({ fetch: 'undefined', connect: 'undefined', found: 'string' });
    });
  });

  it('answers search with no sources, and an unknown resume id as a tool error naming it', async () => {
    await withClient('auto', async (client) => {
      expect(
        textOf(await client.callTool({ name: 'search', arguments: { query: 'create an issue' } })),
      ).toMatch(/no tools|No tools|nothing/i);
      // A run that already ended answers how it ended when the model resumes it.
      const done = envelopeOf(await client.callTool({ name: 'execute', arguments: { code: 'return 1' } }));
      const resumed = envelopeOf(
        await client.callTool({ name: 'execute', arguments: { resume: done.runId } }),
      );
      expect(resumed).toMatchObject({ runId: done.runId, status: 'completed', result: 1 });
      const unknown = await client.callTool({
        name: 'execute',
        arguments: { resume: 'run_00000000000000000000' },
      });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('run_00000000000000000000');
      const both = await client.callTool({
        name: 'execute',
        arguments: { code: 'return 1', resume: 'run_x' },
      });
      expect(both.isError).toBe(true);
    });
  });

  it('answers what a client gets wrong by the protocol, and keeps serving', async () => {
    const post = async (body: string) => {
      const response = await worker.fetch(
        new Request('https://hub.example/mcp', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${WORKERS_TEST_TOKEN}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body,
        }),
      );
      const text = await response.text();
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
      return { status: response.status, message: JSON.parse(json) as Record<string, unknown> | null };
    };
    expect(await post('{not json')).toMatchObject({ status: 400, message: { error: { code: -32700 } } });
    expect(
      await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'nope/nope', params: {} })),
    ).toMatchObject({
      message: { id: 7, error: { code: -32601 } },
    });
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'execute', arguments: { code: `return "${'x'.repeat(2 * 1024 * 1024)}"` } },
    });
    expect((await post(huge)).status).toBe(413);
    await withClient('auto', async (client) => {
      expect((await client.listTools()).tools).toHaveLength(3);
    });
  });
});
