/**
 * The bridge: calls numbered in the guest's order, at most `maxConcurrent` in flight, compute
 * paused while they are, the host's `suspend` and `fail`, a host that throws, nothing after the
 * end, and the same values on every attempt given the same seed and answers.
 */
import { expect } from 'vitest';
import type { SandboxAnswer, SandboxCall } from '../../../engine/sandbox/sandbox.ts';
import { type Check, echo, RecordingHost, resultOf, sleep } from './fixtures.ts';

const slowly =
  (ms: number) =>
  async (call: SandboxCall): Promise<SandboxAnswer> => {
    await sleep(ms);
    return echo(call);
  };

export function bridgeChecks(check: Check): void {
  check(
    'calls are numbered in the order the guest makes them, at most maxConcurrent at once',
    async (run) => {
      const host = new RecordingHost(slowly(15));
      const outcome = await run(
        'const all = await Promise.all(Array.from({ length: 12 }, (_, i) => github.getIssue({ i })));\nreturn all.map((answer) => answer.seq);',
        { host, limits: { maxConcurrent: 3 } },
      );
      expect(resultOf(outcome)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(host.calls.map((call) => [call.seq, call.args.i])).toEqual(host.calls.map((_, i) => [i, i]));
      expect(host.maxInFlight).toBe(3);
    },
  );

  check('compute time is paused while calls are in flight', async (run) => {
    const host = new RecordingHost(slowly(150));
    const outcome = await run('for (let i = 0; i < 3; i++) await github.getIssue({ i });\nreturn "done";', {
      host,
      limits: { computeMs: 100 },
    });
    expect(resultOf(outcome)).toBe('done');
  });

  check('suspend lets calls in flight settle, starts no other, and ends suspended', async (run) => {
    const host = new RecordingHost(async (call) => {
      if (call.seq === 0) {
        await sleep(60);
        return echo(call);
      }
      return call.seq === 1 ? { kind: 'suspend' } : echo(call);
    });
    const outcome = await run(
      'console.log("before");\nawait Promise.all([github.getIssue({}), github.createIssue({}), github.getIssue({})]);\nreturn "unreachable";',
      { host, limits: { maxConcurrent: 2 } },
    );
    expect(outcome).toMatchObject({ status: 'suspended', logs: ['before'], calls: 2 });
    expect(outcome.error).toBeUndefined();
    expect(host.calls.map((call) => call.seq)).toEqual([0, 1]);
    expect(host.settled).toBe(2);
    await sleep(30);
    expect(host.calls).toHaveLength(2);
    expect(resultOf(await run('return "next"'))).toBe('next');
  });

  check("fail ends the attempt failed with the host's error", async (run) => {
    const host = new RecordingHost(() => ({
      kind: 'fail',
      error: { code: 'divergence', message: 'the code took another path' },
    }));
    const outcome = await run(
      'try { await github.getIssue({}); } catch (e) { return "caught"; }\nreturn "went on";',
      { host },
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'divergence', message: 'the code took another path' },
    });
  });

  check('a host that throws fails the attempt, never the sandbox', async (run) => {
    const host = new RecordingHost(() => {
      throw new Error('hub bug');
    });
    const outcome = await run('await github.getIssue({});', { host });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('internal');
    expect(resultOf(await run('return "next"'))).toBe('next');
  });

  check('once an attempt ends, no call reaches the host', async (run) => {
    const host = new RecordingHost(slowly(20));
    const outcome = await run(
      'setTimeout(() => github.createIssue({ late: true }), 30);\ngithub.getIssue({ unawaited: true });\nreturn 1;',
      { host },
    );
    expect(resultOf(outcome)).toBe(1);
    // The unawaited call was in flight at the end: it settled before the outcome came back.
    expect(host.settled).toBe(1);
    await sleep(80);
    expect(host.calls.map((call) => call.args)).toEqual([{ unawaited: true }]);
  });

  check('the same seed and answers give the same values on every attempt', async (run) => {
    const code = `const issue = await github.getIssue({ n: Math.floor(Math.random() * 1000) });
await new Promise((resolve) => setTimeout(resolve, 5));
return [issue.args.n, Math.random(), Date.now(), crypto.randomUUID(), new Date().toISOString()];`;
    const first = await run(code, { host: new RecordingHost(slowly(5)), attempt: 1 });
    const second = await run(code, { host: new RecordingHost(), attempt: 2 });
    expect(resultOf(second)).toEqual(resultOf(first));
  });
}
