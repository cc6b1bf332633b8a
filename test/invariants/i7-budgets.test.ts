/**
 * I7, every channel has a budget (spec: Security and approvals, and "Limits"): code size, compute,
 * wall, memory, calls, concurrency, result and log bytes, search and describe answers and request
 * bodies each have a limit; over it is a clear error naming the limit, and the hub goes on
 * serving.
 *
 * One local hub (the counting board added through the CLI, `hub serve --http` beside `serve
 * --stdio`) and the official MCP client. The limits come from the one limits table
 * (engine/limits.ts), never copies. After every attack the same client runs a normal read.
 *
 * | Way in        | Attack                                                        | Held                                       |
 * | ------------- | ------------------------------------------------------------- | ------------------------------------------ |
 * | MCP execute   | code one byte over `codeBytes`                                | refused before it runs, naming the cap     |
 * | MCP execute   | `while (true) {}`                                             | `compute_limit`                            |
 * | MCP execute   | arrays of strings without end                                 | `memory_limit`                             |
 * | MCP execute   | `maxCalls` + 1 reads                                          | the call over the cap fails, naming it; no more reach the board |
 * | MCP execute   | a result over `resultBytes`                                   | refused with its size and the cap          |
 * | MCP execute   | console.log without end                                       | cut within their budget, `truncated.logs` (it used to be silent) |
 * | MCP execute   | 64 reads at once                                              | all answer (queued behind `maxConcurrent`) |
 * | MCP search    | a query of a megabyte; `limit` of a million                   | refused, naming each bound                 |
 * | HTTP /mcp     | a 50 MB request body                                          | refused (413) before it is read whole       |
 *
 * Also held by: test/node/sandbox.test.ts, test/node/sandbox-quickjs.test.ts and
 * test/workers/sandbox.test.ts (each sandbox limit, both hosts), test/node/result-handles.test.ts
 * (results over the inline budget as handles), test/node/surface-cost.test.ts (search and describe
 * budgets), test/node/sources-hostile.test.ts and test/invariants/hostile-answers.test.ts (a
 * source's names, schemas, stderr and a 50 MB result), test/engine/limits.test.ts (the table).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { DEFAULT_LIMITS } from '../../engine/limits.ts';
import { addBoard, hubHome, startServe } from '../node/cli-process.ts';
import { stdioClient, textOf } from '../node/surface-fixture.ts';

let removeHome: () => void;
let client: Client;
let serve: { url: string; token: string; stop: () => Promise<unknown> };

beforeAll(async () => {
  const made = hubHome();
  removeHome = made.remove;
  const added = addBoard(made.home, join(made.home, 'count.txt'));
  expect(added.status, added.stderr).toBe(0);
  client = (await stdioClient(made.home, 'auto')).client;
  const served = await startServe(made.home);
  serve = { url: served.url, token: readFileSync(served.tokenFile, 'utf8').trim(), stop: served.stop };
}, 120_000);

afterAll(async () => {
  await client?.close();
  await serve?.stop();
  removeHome?.();
}, 60_000);

async function execute(code: string): Promise<ExecuteEnvelope> {
  const answer = await client.callTool({ name: 'execute', arguments: { code } }, { timeout: 180_000 });
  return answer.structuredContent as ExecuteEnvelope;
}

/** The hub still runs a normal read, on the same client. */
async function stillServes(): Promise<void> {
  expect(await execute('return (await board.list_posts({})) !== undefined')).toMatchObject({
    status: 'completed',
    result: true,
  });
}

describe('I7: every channel has a budget, and the hub serves on', () => {
  it('code one byte over its cap is refused before it runs, naming the cap', async () => {
    const code = `return 1;${' '.repeat(DEFAULT_LIMITS.codeBytes)}`;
    const answer = await client.callTool({ name: 'execute', arguments: { code } });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toContain(`over ${DEFAULT_LIMITS.codeBytes.toLocaleString('en-US')} bytes`);
    await stillServes();
  }, 120_000);

  it('compute without end stops at the compute limit', async () => {
    expect(await execute('while (true) {}')).toMatchObject({
      status: 'failed',
      error: { code: 'compute_limit', message: expect.stringContaining(`${DEFAULT_LIMITS.computeMs} ms`) },
    });
    await stillServes();
  }, 120_000);

  it('memory without end stops at the memory limit', async () => {
    const code = 'const a = []; while (true) a.push("x".repeat(1 << 20) + a.length);';
    expect(await execute(code)).toMatchObject({ status: 'failed', error: { code: 'memory_limit' } });
    await stillServes();
  }, 120_000);

  it('calls past the cap fail, naming it, and no more are made', async () => {
    const code =
      'let n = 0; try { for (;;) { await board.list_posts({}); n++; } } catch (e) { return { n, message: e.message }; }';
    const envelope = await execute(code);
    expect(envelope).toMatchObject({
      status: 'completed',
      result: {
        n: DEFAULT_LIMITS.maxCalls,
        message: `this run reached its limit of ${DEFAULT_LIMITS.maxCalls} tool calls`,
      },
    });
    expect(envelope.calls).toHaveLength(DEFAULT_LIMITS.maxCalls);
    await stillServes();
  }, 180_000);

  it('a result over its cap is refused with its size', async () => {
    expect(await execute(`return "x".repeat(${DEFAULT_LIMITS.resultBytes + 1})`)).toMatchObject({
      status: 'failed',
      error: {
        code: 'result_too_large',
        message: expect.stringContaining(`${DEFAULT_LIMITS.resultBytes} bytes`),
      },
    });
    await stillServes();
  }, 120_000);

  it('logs without end are cut within their budget, saying so', async () => {
    const envelope = await execute(
      'for (let i = 0; i < 100000; i++) console.log("line " + i + " ".repeat(100)); return 1',
    );
    expect(envelope).toMatchObject({ status: 'completed', result: 1, truncated: { logs: true } });
    // Said outside the log budget, which the kept lines fill.
    expect(envelope.notices).toContainEqual(
      expect.stringContaining(`more than its ${DEFAULT_LIMITS.inlineResultBytes} bytes`),
    );
    const logged = (envelope.logs ?? []).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    expect(logged).toBeLessThanOrEqual(DEFAULT_LIMITS.inlineResultBytes);
    await stillServes();
  }, 120_000);

  it('64 reads at once all answer, never more than the cap at once', async () => {
    const code = `return (await Promise.all(Array.from({ length: 64 }, () => board.list_posts({})))).length`;
    expect(await execute(code)).toMatchObject({ status: 'completed', result: 64 });
    await stillServes();
  }, 120_000);

  it('search takes a query of a few words and a limit of at most 25', async () => {
    const long = await client.callTool({ name: 'search', arguments: { query: 'x '.repeat(500_000) } });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toMatch(/query: must be at most \d+ characters/);
    const many = await client.callTool({ name: 'search', arguments: { query: 'post', limit: 1_000_000 } });
    expect(many.isError).toBe(true);
    expect(textOf(many)).toMatch(/limit: must be a whole number from 1 to \d+/);
    await stillServes();
  }, 120_000);

  it('a 50 MB request body to /mcp is refused (413), and the hub serves on', async () => {
    const pad = 'x'.repeat(50 * 1024 * 1024);
    const response = await fetch(new URL('/mcp', serve.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${serve.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad } }),
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(/Request body too large: the limit is \d+ bytes/);
    const health = await fetch(new URL('/healthz', serve.url));
    expect(health.status).toBe(200);
    await stillServes();
  }, 120_000);
});
