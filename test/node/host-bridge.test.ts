/**
 * The host half of the bridge (engine/sandbox/host-bridge.ts), driven the way a guest that got
 * past the prelude would drive it: forged addresses, arguments that are not a JSON object or
 * too big, a bad connection name, a flood of calls, calls after the end. None of them reaches
 * the host unless it is a well-formed call to the attempt's own tools, numbered by the gate.
 */
import { describe, expect, it } from 'vitest';
import { ENDED_ANSWER, HostBridge } from '../../engine/sandbox/host-bridge.ts';
import type { SandboxAnswer, SandboxCall, SandboxHost } from '../../engine/sandbox/sandbox.ts';

function host(
  answer: (call: SandboxCall) => SandboxAnswer | Promise<SandboxAnswer> = () => ({ kind: 'value', value: 1 }),
) {
  const calls: SandboxCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const sandboxHost: SandboxHost = {
    async call(call) {
      calls.push(call);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await answer(call);
      } finally {
        inFlight--;
      }
    },
    lookup: async (request) => ({ kind: 'value', value: JSON.stringify(request) }),
  };
  return { sandboxHost, calls, stats: () => ({ maxInFlight }) };
}

const gateFor = (sandboxHost: SandboxHost, maxConcurrent = 8) =>
  new HostBridge(sandboxHost, {
    maxConcurrent,
    addresses: ['github.getIssue', 'slack.postMessage'],
    resultBytes: 1000,
  });

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('HostBridge', () => {
  it('numbers calls from 0 in the order they arrive, and answers JSON text', async () => {
    const { sandboxHost, calls } = host((call) => ({ kind: 'value', value: { seq: call.seq } }));
    const gate = gateFor(sandboxHost);
    const answers = await Promise.all([
      gate.call('github.getIssue', '{"id":1}', null),
      gate.call('slack.postMessage', '{"text":"hi"}', 'work'),
    ]);
    expect(answers).toEqual(['{"ok":true,"value":{"seq":0}}', '{"ok":true,"value":{"seq":1}}']);
    expect(calls).toEqual([
      { seq: 0, address: 'github.getIssue', args: { id: 1 } },
      { seq: 1, address: 'slack.postMessage', args: { text: 'hi' }, connection: 'work' },
    ]);
    expect(gate.calls).toBe(2);
  });

  it.each([
    ['an address outside the profile', 'github.deleteRepo', '{}', null],
    ['an address that is not a string', { toString: (): string => 'github.getIssue' }, '{}', null],
    ['arguments that are not JSON', 'github.getIssue', '{oops', null],
    ['arguments that are not an object', 'github.getIssue', '[1,2]', null],
    ['arguments that are null', 'github.getIssue', 'null', null],
    ['arguments that are not text', 'github.getIssue', { id: 1 }, null],
    ['arguments over resultBytes', 'github.getIssue', JSON.stringify({ text: 'x'.repeat(1000) }), null],
    ['a connection that is not a name', 'github.getIssue', '{}', '../../etc/passwd'],
    ['a connection that is not text', 'github.getIssue', '{}', 7],
  ])('refuses %s without reaching the host or using a number', async (_, address, args, connection) => {
    const { sandboxHost, calls } = host();
    const gate = gateFor(sandboxHost);
    const answer = JSON.parse(await gate.call(address, args, connection));
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_call', retryable: false } });
    expect(calls).toEqual([]);
    await gate.call('github.getIssue', '{}', null);
    expect(calls.map((call) => call.seq)).toEqual([0]);
  });

  it('hands at most maxConcurrent calls to the host at once, the rest in order', async () => {
    const { sandboxHost, calls, stats } = host(async (call) => {
      await tick();
      return { kind: 'value', value: call.seq };
    });
    const gate = gateFor(sandboxHost, 3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => gate.call('github.getIssue', '{}', null)),
    );
    expect(answers.map((text) => JSON.parse(text).value)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(calls.map((call) => call.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(stats().maxInFlight).toBe(3);
  });

  it('on suspend: answers "ended", drops what waits, starts nothing more, and says so', async () => {
    const { sandboxHost, calls } = host(async (call) => {
      if (call.seq === 0) {
        await tick();
        return { kind: 'value', value: 'slow' };
      }
      return { kind: 'suspend' };
    });
    const gate = gateFor(sandboxHost, 2);
    const answers = Promise.all([0, 1, 2, 3].map(() => gate.call('github.getIssue', '{}', null)));
    expect(await gate.ended).toEqual({ kind: 'suspend' });
    expect(await answers).toEqual([ENDED_ANSWER, ENDED_ANSWER, ENDED_ANSWER, ENDED_ANSWER]);
    await gate.idle();
    expect(calls.map((call) => call.seq)).toEqual([0, 1]);
    expect(await gate.call('github.getIssue', '{}', null)).toBe(ENDED_ANSWER);
    expect(await gate.lookup('{"kind":"search","query":"x"}')).toBe(ENDED_ANSWER);
    expect(calls).toHaveLength(2);
  });

  it('on fail, a host that throws, or an answer it cannot send: ends the attempt failed', async () => {
    const cases: [SandboxHost['call'], string][] = [
      [async () => ({ kind: 'fail', error: { code: 'divergence', message: 'another path' } }), 'divergence'],
      [
        async () => {
          throw new Error('hub bug');
        },
        'internal',
      ],
      [async () => ({ kind: 'value', value: 10n as unknown as number }), 'internal'],
      [async () => ({ kind: 'unknown' }) as unknown as SandboxAnswer, 'internal'],
    ];
    for (const [call, code] of cases) {
      const gate = gateFor({ call, lookup: async () => ({ kind: 'value', value: '' }) });
      expect(await gate.call('github.getIssue', '{}', null)).toBe(ENDED_ANSWER);
      expect(await gate.ended).toMatchObject({ kind: 'fail', error: { code } });
    }
  });

  it('passes tool errors through with only their known fields', async () => {
    const { sandboxHost } = host(() => ({
      kind: 'error',
      error: {
        code: 'upstream',
        message: 'nope',
        status: 502,
        hint: 'later',
        retryable: true,
        secret: 'x',
      } as never,
    }));
    const answer = JSON.parse(await gateFor(sandboxHost).call('github.getIssue', '{}', null));
    expect(answer).toEqual({
      ok: false,
      error: { code: 'upstream', message: 'nope', status: 502, hint: 'later', retryable: true },
    });
  });

  it('checks lookups, caps their limit, and counts them against maxConcurrent', async () => {
    const { sandboxHost } = host();
    const gate = gateFor(sandboxHost);
    const answer = await gate.lookup('{"kind":"search","query":"bugs","namespace":"github","limit":500}');
    expect(JSON.parse(JSON.parse(answer).value)).toEqual({
      kind: 'search',
      query: 'bugs',
      namespace: 'github',
      limit: 25,
    });
    for (const bad of [
      '{"kind":"describe","targets":[]}',
      `{"kind":"describe","targets":${JSON.stringify(Array(11).fill('a'))}}`,
      '{"kind":"exec"}',
      'nope',
      42,
    ]) {
      expect(JSON.parse(await gate.lookup(bad))).toMatchObject({
        ok: false,
        error: { code: 'invalid_call' },
      });
    }
    expect(gate.calls).toBe(0);
  });

  it("runs an answer's commit before the answer is returned, by default", async () => {
    const order: string[] = [];
    const { sandboxHost } = host(() => ({
      kind: 'value',
      value: 1,
      commit: () => {
        order.push('commit');
        return undefined;
      },
    }));
    const answer = await gateFor(sandboxHost).call('github.getIssue', '{}', null);
    order.push('answer');
    expect(JSON.parse(answer)).toEqual({ ok: true, value: 1 });
    expect(order).toEqual(['commit', 'answer']);
  });

  it('with commitsAfterAnswers, runs commits at answered(), before the next request, or at close', async () => {
    const committed: number[] = [];
    const { sandboxHost, calls } = host((call) => ({
      kind: 'value',
      value: call.seq,
      commit: () => {
        committed.push(call.seq);
        return undefined;
      },
    }));
    const gate = new HostBridge(sandboxHost, {
      maxConcurrent: 8,
      addresses: ['github.getIssue'],
      resultBytes: 1000,
      commitsAfterAnswers: true,
    });
    expect(JSON.parse(await gate.call('github.getIssue', '{}', null))).toEqual({ ok: true, value: 0 });
    expect(committed).toEqual([]);
    gate.answered();
    expect(committed).toEqual([0]);
    await gate.call('github.getIssue', '{}', null);
    expect(committed).toEqual([0]);
    // The guest's next request: the commit of the answer before it runs first.
    const next = gate.call('github.getIssue', '{}', null);
    expect(committed).toEqual([0, 1]);
    await next;
    await gate.lookup('{"kind":"search","query":"x"}');
    expect(committed).toEqual([0, 1, 2]);
    await gate.call('github.getIssue', '{}', null);
    gate.close();
    expect(committed).toEqual([0, 1, 2, 3]);
    expect(calls.map((call) => call.seq)).toEqual([0, 1, 2, 3]);
  });

  it('a commit that returns an ending, or throws, ends the attempt', async () => {
    const cases: [() => SandboxAnswer, string, boolean][] = [
      [
        () => ({
          kind: 'value',
          value: 1,
          commit: () => ({ kind: 'fail', error: { code: 'busy', message: 'b' } }),
        }),
        'busy',
        false,
      ],
      [
        () => ({
          kind: 'error',
          error: { code: 'upstream_error', message: 'no', retryable: false },
          commit: () => {
            throw new Error('disk full');
          },
        }),
        'internal',
        false,
      ],
      [
        () => ({
          kind: 'value',
          value: 1,
          commit: () => ({ kind: 'fail', error: { code: 'busy', message: 'b' } }),
        }),
        'busy',
        true,
      ],
    ];
    for (const [answer, code, after] of cases) {
      const { sandboxHost, calls } = host(answer);
      const gate = new HostBridge(sandboxHost, {
        maxConcurrent: 8,
        addresses: ['github.getIssue'],
        resultBytes: 1000,
        commitsAfterAnswers: after,
      });
      const text = await gate.call('github.getIssue', '{}', null);
      if (after) {
        // Handed to the guest already; the commit then ends the attempt, and nothing more starts.
        expect(JSON.parse(text)).toEqual({ ok: true, value: 1 });
        gate.answered();
      } else expect(text).toBe(ENDED_ANSWER);
      expect(await gate.ended).toMatchObject({ kind: 'fail', error: { code } });
      expect(await gate.call('github.getIssue', '{}', null)).toBe(ENDED_ANSWER);
      expect(calls).toHaveLength(1);
    }
  });

  it('after close, nothing reaches the host', async () => {
    const { sandboxHost, calls } = host();
    const gate = gateFor(sandboxHost);
    gate.close();
    expect(await gate.call('github.getIssue', '{}', null)).toBe(ENDED_ANSWER);
    expect(calls).toEqual([]);
  });
});
