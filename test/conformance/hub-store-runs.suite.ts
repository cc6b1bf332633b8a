/**
 * The HubStore contract, part two: runs, the journal, pending inputs and decisions. Called from
 * describeHubStore (hub-store.suite.ts), so it runs in both runtimes with the same harness.
 */
import { expect } from 'vitest';
import type { Run } from '../../engine/contracts/runs.ts';
import { fixtures, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

export function describeRunRecords(check: Check): void {
  check('runs are created once, updated in place and listed newest first by status', async ({ store }) => {
    store.createRun(fixtures.run('run_1'));
    store.createRun({ ...fixtures.run('run_2'), createdAt: T0 + 5 });
    await rejectsWith('conflict', () => store.createRun(fixtures.run('run_1')));
    const done = store.updateRun('run_1', {
      status: 'completed',
      result: { ok: [1, 2] },
      updatedAt: T0 + 9,
    });
    expect(done.result).toEqual({ ok: [1, 2] });
    expect(store.getRun('run_1')).toEqual(done);
    expect(store.listRuns().map((r) => r.id)).toEqual(['run_2', 'run_1']);
    expect(store.listRuns({ status: 'completed' }).map((r) => r.id)).toEqual(['run_1']);
    await rejectsWith('not_found', () => store.updateRun('nope', { updatedAt: T0 }));
  });

  check("a run's state is its status and attempt alone", ({ store }) => {
    store.createRun(fixtures.run('run_1'));
    expect(store.getRunState('run_1')).toEqual({ status: 'running', attempts: 1 });
    store.updateRun('run_1', { status: 'awaiting_input', attempts: 2, updatedAt: T0 + 1 });
    expect(store.getRunState('run_1')).toEqual({ status: 'awaiting_input', attempts: 2 });
    expect(store.getRunState('nope')).toBeUndefined();
  });

  check('a duplicate journal seq is a conflict', async ({ store }) => {
    store.createRun(fixtures.run());
    store.appendJournal(fixtures.start('run_1', 0));
    await rejectsWith('conflict', () => store.appendJournal(fixtures.start('run_1', 0)));
    expect(store.listJournal('run_1')).toHaveLength(1);
  });

  check('a journal entry needs its run', async ({ store }) => {
    await rejectsWith('not_found', () => store.appendJournal(fixtures.start('ghost', 0)));
  });

  check('an outcome settles its entry once; an unsettled entry stays in doubt', async ({ store }) => {
    store.createRun(fixtures.run());
    store.appendJournal(fixtures.start('run_1', 0));
    store.appendJournal(fixtures.start('run_1', 1));
    const outcome = { ok: true as const, value: { id: 7 }, ms: 12 };
    store.settleJournal('run_1', 0, outcome, T0 + 50);
    await rejectsWith('conflict', () =>
      store.settleJournal(
        'run_1',
        0,
        { ok: false, error: { code: 'upstream_error', message: 'y', retryable: false }, ms: 1 },
        T0,
      ),
    );
    await rejectsWith('not_found', () => store.settleJournal('run_1', 9, outcome, T0));
    const journal = store.listJournal('run_1');
    expect(journal.map((e) => [e.seq, e.outcome])).toEqual([
      [0, outcome],
      [1, undefined],
    ]);
    expect(store.getJournalEntry('run_1', 0)?.settledAt).toBe(T0 + 50);
  });

  check('the journal refuses update and delete even to raw SQL', ({ store, exec }) => {
    store.createRun(fixtures.run());
    store.appendJournal(fixtures.start('run_1', 0));
    store.settleJournal('run_1', 0, { ok: true, value: 1, ms: 1 }, T0);
    expect(() => exec(`UPDATE hub_journal SET address = 'linear.other' WHERE run_id = 'run_1'`)).toThrow(
      /append-only/,
    );
    expect(() => exec(`DELETE FROM hub_journal WHERE run_id = 'run_1'`)).toThrow(/append-only/);
    expect(() => exec(`UPDATE hub_journal_outcomes SET settled_at = 0`)).toThrow(/append-only/);
    expect(() => exec(`DELETE FROM hub_journal_outcomes`)).toThrow(/append-only/);
    expect(store.getJournalEntry('run_1', 0)?.address).toBe('linear.create_issue');
    // Retention removes a run first; only then may its journal go.
    exec(`DELETE FROM hub_runs WHERE id = 'run_1'`);
    exec(`DELETE FROM hub_journal_outcomes WHERE run_id = 'run_1'`);
    exec(`DELETE FROM hub_journal WHERE run_id = 'run_1'`);
    expect(store.listJournal('run_1')).toEqual([]);
  });

  check('a pending input is decided once, for that exact pending call', async ({ store, exec }) => {
    store.createRun(fixtures.run('run_1'));
    store.createRun(fixtures.run('run_2'));
    store.addPendingInput(fixtures.pending('run_1', 3));
    await rejectsWith('conflict', () => store.addPendingInput(fixtures.pending('run_1', 4, 'pending_3')));
    const decision = {
      id: 'dec_1',
      pendingId: 'pending_3',
      runId: 'run_1',
      choice: 'run' as const,
      channel: 'cli' as const,
      who: 'ada',
      at: T0 + 1,
    };
    await rejectsWith('invalid_input', () => store.recordDecision({ ...decision, runId: 'run_2' }));
    await rejectsWith('not_found', () => store.recordDecision({ ...decision, pendingId: 'pending_9' }));
    store.recordDecision(decision);
    await rejectsWith('conflict', () => store.recordDecision({ ...decision, id: 'dec_2', choice: 'deny' }));
    expect(store.getDecision('pending_3')).toEqual(decision);
    expect(store.listDecisions('run_1')).toEqual([decision]);
    expect(() => exec(`UPDATE hub_decisions SET choice = 'always'`)).toThrow(/recorded once/);
    expect(store.listPendingInputs('run_1').map((p) => p.id)).toEqual(['pending_3']);
    // A call that differs from the one decided at seq 3 asks again there: a second input, kept in order.
    store.addPendingInput({ ...fixtures.pending('run_1', 3, 'pending_3b'), createdAt: T0 + 2 });
    expect(store.listPendingInputs('run_1').map((p) => p.id)).toEqual(['pending_3', 'pending_3b']);
  });

  check('live attempts are the running runs claimed and marked within the lease', ({ store }) => {
    const lease = 5_000;
    store.createRun(fixtures.run('run_live'));
    store.createRun({ ...fixtures.run('run_marked'), updatedAt: T0 + 3_000 });
    store.createRun({ ...fixtures.run('run_unclaimed'), attempts: 0 });
    store.createRun({ ...fixtures.run('run_silent'), updatedAt: T0 - lease - 1 });
    store.createRun({ ...fixtures.run('run_waiting'), status: 'awaiting_input' });
    store.createRun({ ...fixtures.run('run_done'), status: 'completed' });
    expect(store.countLiveAttempts(T0 - lease)).toBe(2);
    expect(store.countLiveAttempts(T0 + 1)).toBe(1);
    // Counted and claimed in one transaction, as Runs does: the claim is seen by the next count.
    const claimed = store.atomically(() => {
      const live = store.countLiveAttempts(T0 - lease);
      store.updateRun('run_unclaimed', { attempts: 1, updatedAt: T0 }, { status: 'running', attempts: 0 });
      return live;
    });
    expect(claimed).toBe(2);
    expect(store.countLiveAttempts(T0 - lease)).toBe(3);
    store.updateRun('run_live', { status: 'completed', updatedAt: T0 + 4_000 });
    expect(store.countLiveAttempts(T0 - lease)).toBe(2);
  });

  check('a run keeps its result, error, logs and notices through create and update', ({ store }) => {
    const run: Run = {
      ...fixtures.run('run_1'),
      result: { list: [1, 'two', null, { three: true }] },
      error: { code: 'divergence', message: 'y', hint: 'z' },
      logs: ['a', 'b'],
      notices: ['n'],
    };
    store.createRun(run);
    expect(store.getRun('run_1')).toEqual(run);
    const next = store.updateRun('run_1', { result: null, logs: ['a', 'b', 'c'], updatedAt: T0 + 1 });
    expect(next.result).toBeNull();
    expect(store.getRun('run_1')).toMatchObject({
      logs: ['a', 'b', 'c'],
      error: run.error,
      updatedAt: T0 + 1,
    });
    store.createRun(fixtures.run('run_2'));
    expect(store.getRun('run_2')).toEqual(fixtures.run('run_2'));
  });
}
