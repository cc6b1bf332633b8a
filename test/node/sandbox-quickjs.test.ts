/**
 * What only the QuickJS driver promises, beyond the shared contract: a worker that hit a limit
 * is replaced (and one that did not is reused), the WebAssembly memory's `maximum` holds where
 * QuickJS's own accounting does not look, the interrupt reaches into native work (a regular
 * expression), small heaps are raised to what QuickJS needs, attempts run side by side, and no
 * more worker threads are alive at once than the sandbox's cap (issue #11, part 3).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { RecordingHost, resultOf, runner, sleep } from '../conformance/sandbox/fixtures.ts';

const sandbox = new QuickJsSandbox({ poolSize: 1 });
const run = runner(() => sandbox);
afterAll(() => sandbox.close());

describe('QuickJsSandbox', () => {
  it('reuses a worker after a plain attempt and replaces one that hit a limit', async () => {
    expect(resultOf(await run('return 1'))).toBe(1);
    const before = sandbox.threadsStarted;
    expect(resultOf(await run('return 2'))).toBe(2);
    expect(sandbox.threadsStarted).toBe(before);
    expect((await run('for (;;) {}', { limits: { computeMs: 100 } })).limit).toBe('compute');
    expect(sandbox.threadsStarted).toBe(before + 1);
    expect(
      (
        await run('const keep = [];\nfor (;;) keep.push("x".repeat(1 << 20) + keep.length);', {
          limits: { memoryBytes: 24 << 20 },
        })
      ).limit,
    ).toBe('memory');
    expect(resultOf(await run('return 3'))).toBe(3);
  });

  it('holds the hard cap on memory QuickJS does not count as heap (typed arrays)', async () => {
    const outcome = await run('const keep = [];\nfor (;;) keep.push(new Float64Array(1 << 17));', {
      limits: { memoryBytes: 24 << 20 },
    });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'memory' });
    expect(resultOf(await run('return "next"'))).toBe('next');
  });

  it('stops catastrophic backtracking in a regular expression at the compute limit', async () => {
    const outcome = await run('return /(a+)+b/.test("a".repeat(40) + "!");', { limits: { computeMs: 200 } });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'compute' });
  });

  it('raises a heap below 16 MB to what QuickJS needs to start', async () => {
    expect(resultOf(await run('return "small"', { limits: { memoryBytes: 1024 } }))).toBe('small');
  });

  it('runs attempts side by side, each with its own calls', async () => {
    const hosts = [0, 1, 2].map(
      () =>
        new RecordingHost(async (call) => {
          await sleep(10);
          return { kind: 'value', value: call.seq };
        }),
    );
    const outcomes = await Promise.all(
      hosts.map((host, i) =>
        run(`let n = 0;\nfor (let j = 0; j < ${3 + i}; j++) n += await github.getIssue({ j });\nreturn n;`, {
          host,
        }),
      ),
    );
    expect(outcomes.map(resultOf)).toEqual([3, 6, 10]);
    expect(hosts.map((host) => host.calls.length)).toEqual([3, 4, 5]);
  });

  it('never keeps or starts more worker threads than its cap: more attempts wait for one', async () => {
    const capped = new QuickJsSandbox({ poolSize: 2, maxWorkers: 2 });
    try {
      let mostAlive = 0;
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const host = new RecordingHost(async (call) => {
        mostAlive = Math.max(mostAlive, capped.threadsAlive);
        if (host.inFlight >= 2) release();
        await held;
        return { kind: 'value', value: call.seq };
      });
      const outcomes = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((i) =>
          runner(() => capped)(`return (await github.getIssue({ i: ${i} })) + ${i};`, { host }),
        ),
      );
      expect(outcomes.map(resultOf)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(capped.threadsStarted).toBe(2);
      expect(host.maxInFlight).toBe(2);
      expect(mostAlive).toBe(2);
      expect(capped.threadsAlive).toBeLessThanOrEqual(2);
    } finally {
      await capped.close();
    }
  });
});
