/**
 * Exhaustion: an infinite loop, a memory bomb, deep recursion, a flood of logs, a huge result,
 * 100,000 pending promises, a 2-minute timer and a slow host. Each ends inside its limit with a
 * clear error, and the next attempt in the same host works.
 */
import { expect } from 'vitest';
import { sandboxLimits } from '../../../engine/sandbox/limits.ts';
import { type Check, RecordingHost, type Run, resultOf, sleep } from './fixtures.ts';

async function nextAttemptWorks(run: Run): Promise<void> {
  expect(resultOf(await run('return "still works";'))).toBe('still works');
}

export function exhaustionChecks(check: Check): void {
  check("the defaults are the spec's numbers, and a host cannot raise them", async () => {
    expect(sandboxLimits()).toEqual({
      computeMs: 10_000,
      wallMs: 90_000,
      memoryBytes: 64 * 1024 * 1024,
      maxConcurrent: 8,
      logBytes: 24 * 1024,
      resultBytes: 1024 * 1024,
    });
    expect(sandboxLimits({ computeMs: 60_000, maxConcurrent: 100, wallMs: 10 })).toMatchObject({
      computeMs: 10_000,
      maxConcurrent: 8,
      wallMs: 10,
    });
  });

  check('an infinite loop ends at the compute limit', async (run) => {
    const outcome = await run('while (true) {}', { limits: { computeMs: 300 } });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'compute', error: { code: 'compute_limit' } });
    await nextAttemptWorks(run);
  });

  check('a loop that catches everything still ends at the compute limit', async (run) => {
    const outcome = await run('for (;;) { try { for (;;) {} } catch (e) {} }', {
      limits: { computeMs: 300 },
    });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'compute' });
    await nextAttemptWorks(run);
  });

  check(
    'a memory bomb ends at the memory limit',
    async (run) => {
      // Bounded at 16 times the cap, so a driver without a cap finishes instead of eating the host.
      const outcome = await run(
        'const keep = [];\nfor (let i = 0; i < 512; i++) keep.push(new Array(131072).fill(i + 0.5));\nreturn keep.length;',
        { limits: { memoryBytes: 32 * 1024 * 1024 } },
      );
      expect(outcome).toMatchObject({ status: 'failed', limit: 'memory', error: { code: 'memory_limit' } });
      await nextAttemptWorks(run);
    },
    60_000,
  );

  check('deep recursion ends at the stack limit', async (run) => {
    const outcome = await run('function down(n) { return down(n + 1) + 1; }\nreturn down(0);');
    expect(outcome).toMatchObject({ status: 'failed', limit: 'stack', error: { code: 'stack_limit' } });
    await nextAttemptWorks(run);
  });

  check('a flood of logs is cut at the log budget', async (run) => {
    const outcome = await run('for (let i = 0; i < 100000; i++) console.log("line " + i);\nreturn "done";', {
      limits: { logBytes: 1024 },
    });
    expect(resultOf(outcome)).toBe('done');
    expect(outcome.logsTruncated).toBe(true);
    expect(outcome.logs[0]).toBe('line 0');
    expect(outcome.logs.join('\n').length).toBeLessThanOrEqual(1024);
    await nextAttemptWorks(run);
  });

  check('a huge result is refused', async (run) => {
    const outcome = await run('return "x".repeat(4 * 1024 * 1024);', { limits: { resultBytes: 64 * 1024 } });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'result', error: { code: 'result_too_large' } });
    await nextAttemptWorks(run);
  });

  check('pending promises that nothing settles end as a deadlock at once', async (run) => {
    const outcome = await run(
      'await Promise.all(Array.from({ length: 10000 }, () => new Promise(() => {})));',
    );
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'deadlock' } });
    await nextAttemptWorks(run);
  });

  check('100,000 pending promises end as a deadlock or at the memory limit, at once', async (run) => {
    // QuickJS needs ~700 bytes per Promise.all entry: 100,000 of them outgrow 64 MB first.
    const outcome = await run(
      'await Promise.all(Array.from({ length: 100000 }, () => new Promise(() => {})));',
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toMatch(/^(deadlock|memory_limit)$/);
    // "At once": it ended on its own account, never by waiting out the wall limit.
    expect(outcome.limit).not.toBe('wall');
    const settled = await run(
      'const all = await Promise.all(Array.from({ length: 20000 }, (_, i) => Promise.resolve(i)));\nreturn all.length;',
    );
    expect(resultOf(settled)).toBe(20_000);
  });

  check('a 2-minute timer is refused at once', async (run) => {
    const outcome = await run('await new Promise((resolve) => setTimeout(resolve, 120000));');
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'uncaught', name: 'RangeError' } });
    expect(outcome.error?.message).toContain('30,000 ms');
    await nextAttemptWorks(run);
  });

  check('timers chained past the wall limit end there', async (run) => {
    const outcome = await run('for (;;) await new Promise((resolve) => setTimeout(resolve, 100));', {
      limits: { wallMs: 400 },
    });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'wall', error: { code: 'wall_limit' } });
    await nextAttemptWorks(run);
  });

  check('a slow tool call ends at the wall limit', async (run) => {
    const host = new RecordingHost(async () => {
      await sleep(2_000);
      return { kind: 'value', value: null };
    });
    const outcome = await run('await github.getIssue({});', { host, limits: { wallMs: 300 } });
    expect(outcome).toMatchObject({ status: 'failed', limit: 'wall' });
    await nextAttemptWorks(run);
  });
}
