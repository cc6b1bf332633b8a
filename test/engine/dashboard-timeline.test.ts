/**
 * The timeline's model (dashboard/timeline-model.ts) and how long things took (dashboard/when.ts
 * `span`), exactly: where each bar sits on the run's axis, which calls were replayed, and how an
 * ask that nobody answered ends.
 */
import { describe, expect, it } from 'vitest';
import { timelineOf } from '../../dashboard/timeline-model.ts';
import { span } from '../../dashboard/when.ts';
import type { JournalEntry, PendingInput, Run } from '../../engine/contracts/runs.ts';

const T0 = 1_800_000_000_000;

const run = (over: Partial<Run>): Run => ({
  id: 'run_a',
  profile: 'default',
  status: 'completed',
  code: '',
  seed: 'ab',
  clockOrigin: T0,
  attempts: 1,
  logs: [],
  notices: [],
  createdAt: T0,
  updatedAt: T0 + 1000,
  ...over,
});

const entry = (seq: number, startedAt: number, settledAt?: number): JournalEntry => ({
  runId: 'run_a',
  seq,
  address: 'board.read',
  connection: null,
  argsDigest: 'ab'.repeat(32),
  decision: { effect: 'allow', by: 'policy', reason: 'read-only' },
  startedAt: T0 + startedAt,
  ...(settledAt === undefined
    ? {}
    : { outcome: { ok: true, value: 1, ms: settledAt - startedAt }, settledAt: T0 + settledAt }),
});

const ask = (createdAt: number, expiresIn: number): PendingInput => ({
  id: `pending_${createdAt}`,
  runId: 'run_a',
  seq: 9,
  kind: 'approval',
  address: 'board.post',
  connection: null,
  summary: '',
  argsPreview: '{}',
  argsDigest: null,
  contract: null,
  reason: 'asks',
  createdAt: T0 + createdAt,
  expiresAt: T0 + createdAt + expiresIn,
});

describe('a run’s timeline', () => {
  it('places calls in percent of the run, the narrowest at 0.5%, and none past the end', () => {
    const t = timelineOf({
      run: run({}),
      journal: [entry(0, 0, 250), entry(1, 998, 999)],
      asks: [],
      now: T0 + 5000,
    });
    expect([t.start, t.end, t.callsMs, t.waitedMs]).toEqual([T0, T0 + 1000, 251, 0]);
    expect(t.rows.map((row) => row.bar)).toEqual([
      { offset: 0, width: 25 },
      { offset: 99.5, width: 0.5 },
    ]);
    expect(t.rows.map((row) => row.kind === 'call' && row.replayed)).toEqual([false, false]);
  });

  it('a call settled before an ask is replayed when a later attempt ran; the in-doubt call never is', () => {
    const journal = [entry(0, 10, 20), entry(1, 30)];
    const asks = [{ input: ask(25, 60_000) }];
    const once = timelineOf({ run: run({ status: 'expired', updatedAt: T0 + 100 }), journal, asks, now: T0 });
    expect(once.rows.map((row) => (row.kind === 'call' ? row.replayed : 'ask'))).toEqual([
      false,
      'ask',
      false,
    ]);
    const twice = timelineOf({ run: run({ attempts: 2, updatedAt: T0 + 100 }), journal, asks, now: T0 });
    expect(twice.rows.map((row) => (row.kind === 'call' ? row.replayed : 'ask'))).toEqual([
      true,
      'ask',
      false,
    ]);
  });

  it('an ask nobody answered waits until now while the run waits, else until it expired or the run ended', () => {
    const waiting = timelineOf({
      run: run({ status: 'awaiting_input', updatedAt: T0 }),
      journal: [],
      asks: [{ input: ask(0, 60_000) }],
      now: T0 + 30_000,
    });
    expect(waiting.rows).toEqual([expect.objectContaining({ kind: 'ask', waiting: true, end: T0 + 30_000 })]);
    expect(waiting.waitedMs).toBe(30_000);
    const expired = timelineOf({
      run: run({ status: 'expired', updatedAt: T0 + 90_000 }),
      journal: [],
      asks: [{ input: ask(0, 60_000) }],
      now: T0 + 100_000,
    });
    expect(expired.rows).toEqual([
      expect.objectContaining({
        kind: 'ask',
        waiting: false,
        end: T0 + 60_000,
        bar: { offset: 0, width: 66.67 },
      }),
    ]);
  });
});

describe('how long something took', () => {
  it('says ms under a second, tenths under a minute, then minutes and hours', () => {
    expect([0, 999, 1000, 1250, 59_999, 60_000, 61_000, 3_599_000, 3_600_000, 7_500_000].map(span)).toEqual([
      '0 ms',
      '999 ms',
      '1 s',
      '1.2 s',
      '59.9 s',
      '1 min',
      '1 min 1 s',
      '59 min 59 s',
      '1 h',
      '2 h 5 min',
    ]);
  });
});
