/**
 * How an attempt ends (engine/runs/attempt-ending.ts): every way the gate and the sandbox can
 * end one, the run ending each gives, what the bridge is told, and the one write of the run's
 * final status.
 */
import { describe, expect, it } from 'vitest';
import type { Run } from '../../engine/contracts/runs.ts';
import { HubError } from '../../engine/errors.ts';
import type { RunExpectation, RunUpdate } from '../../engine/ports.ts';
import {
  AttemptEnding,
  busyRun,
  type EndingWitness,
  type RunEnding,
  recordEnding,
} from '../../engine/runs/attempt-ending.ts';
import type { SandboxOutcome } from '../../engine/sandbox/sandbox.ts';
import { createScrubber } from '../../engine/secrets/scrub.ts';

const completed: SandboxOutcome = {
  status: 'completed',
  result: { ok: 1 },
  logs: [],
  logsTruncated: false,
  calls: 1,
};
const suspended: SandboxOutcome = { status: 'suspended', logs: [], logsTruncated: false, calls: 2 };
const wall: SandboxOutcome = {
  status: 'failed',
  error: { code: 'wall_limit', message: 'too long', hint: 'do less' },
  limit: 'wall',
  logs: [],
  logsTruncated: false,
  calls: 0,
};
const divergence: EndingWitness = { kind: 'divergence', message: 'call 0 took another path' };
const cancelled: EndingWitness = { kind: 'cancelled', message: 'run run_1 was cancelled' };

function ended(witnesses: EndingWitness[], outcome: SandboxOutcome, open = 1): RunEnding {
  const ending = new AttemptEnding('run_1');
  for (const witness of witnesses) ending.witnessed(witness);
  return ending.settle(outcome, () => open);
}

describe('AttemptEnding', () => {
  it('tells the bridge to suspend, or to fail with the reason', () => {
    const ending = new AttemptEnding('run_1');
    expect(ending.witnessed({ kind: 'suspend' })).toEqual({ kind: 'suspend' });
    expect(ending.witnessed(divergence)).toEqual({
      kind: 'fail',
      error: { code: 'divergence', message: 'call 0 took another path' },
    });
    expect(ending.witnessed(cancelled)).toEqual({
      kind: 'fail',
      error: { code: 'cancelled', message: 'run run_1 was cancelled' },
    });
    expect(ending.witnessed({ kind: 'busy' })).toEqual({
      kind: 'fail',
      error: { code: 'busy', message: busyRun('run_1').message },
    });
  });

  it('the guest completed: completed with its result (null when it returned nothing)', () => {
    expect(ended([], completed)).toEqual({ kind: 'completed', result: { ok: 1 } });
    expect(ended([], { ...completed, result: undefined })).toEqual({ kind: 'completed', result: null });
  });

  it('a call waits for a person: awaiting_input while an input is open, else failed', () => {
    expect(ended([{ kind: 'suspend' }], suspended, 1)).toEqual({ kind: 'awaiting_input' });
    expect(ended([{ kind: 'suspend' }], suspended, 0)).toEqual({
      kind: 'failed',
      error: { code: 'internal', message: 'the attempt ended without a result' },
    });
  });

  it('the open inputs are read only when the attempt suspended for a person', () => {
    let reads = 0;
    const ending = new AttemptEnding('run_1');
    ending.settle(completed, () => reads++);
    ending.settle(wall, () => reads++);
    expect(reads).toBe(0);
  });

  it('a limit the sandbox saw, even after the gate suspended: failed with its error and hint', () => {
    const failed = { kind: 'failed', error: { code: 'wall_limit', message: 'too long', hint: 'do less' } };
    expect(ended([], wall)).toEqual(failed);
    expect(ended([{ kind: 'suspend' }], wall)).toEqual(failed);
  });

  it('divergence and cancel fail the run with the gate’s reason', () => {
    expect(ended([divergence], suspended)).toEqual({
      kind: 'failed',
      error: { code: 'divergence', message: 'call 0 took another path' },
    });
    expect(ended([cancelled], wall)).toEqual({
      kind: 'failed',
      error: { code: 'cancelled', message: 'run run_1 was cancelled' },
    });
  });

  it('another attempt holds the run: busy, whatever the sandbox says', () => {
    expect(ended([{ kind: 'busy' }], completed)).toEqual({ kind: 'busy' });
    expect(ended([{ kind: 'busy' }], wall)).toEqual({ kind: 'busy' });
  });

  it('the strongest witness stands: busy, then cancelled, then divergence, then suspend', () => {
    expect(ended([{ kind: 'suspend' }, divergence], suspended)).toMatchObject({
      error: { code: 'divergence' },
    });
    expect(ended([divergence, { kind: 'suspend' }], suspended)).toMatchObject({
      error: { code: 'divergence' },
    });
    expect(ended([divergence, cancelled], suspended)).toMatchObject({ error: { code: 'cancelled' } });
    expect(ended([cancelled, divergence], suspended)).toMatchObject({ error: { code: 'cancelled' } });
    expect(ended([{ kind: 'busy' }, cancelled, divergence], suspended)).toEqual({ kind: 'busy' });
    expect(ended([divergence, { kind: 'busy' }], suspended)).toEqual({ kind: 'busy' });
  });
});

describe('recordEnding', () => {
  const run: Run = {
    id: 'run_1',
    profile: 'default',
    status: 'running',
    code: 'return 1',
    seed: 'ab',
    clockOrigin: 0,
    attempts: 2,
    logs: ['earlier'],
    notices: [],
    createdAt: 0,
    updatedAt: 0,
  };
  const scrubber = createScrubber(['s3cret-value']);

  function recorder(fail: (update: RunUpdate) => HubError | undefined = () => undefined) {
    const writes: { update: RunUpdate; expected: RunExpectation | undefined }[] = [];
    const store = {
      updateRun(_id: string, update: RunUpdate, expected?: RunExpectation): Run {
        writes.push({ update, expected });
        const error = fail(update);
        if (error) throw error;
        return run;
      },
    };
    return { store, writes };
  }

  it('writes the final status once, only over this attempt, scrubbed, with the logs appended', () => {
    const { store, writes } = recorder();
    recordEnding(
      { kind: 'completed', result: { token: 's3cret-value' } },
      { store, run, logs: ['now'], now: 7, scrubber },
    );
    expect(writes).toHaveLength(1);
    expect(writes[0]?.expected).toEqual({ status: 'running', attempts: 2 });
    expect(writes[0]?.update).toMatchObject({ status: 'completed', logs: ['earlier', 'now'], updatedAt: 7 });
    expect(JSON.stringify(writes[0]?.update.result)).not.toContain('s3cret-value');
  });

  it('awaiting_input and failed are written the same way', () => {
    const { store, writes } = recorder();
    recordEnding({ kind: 'awaiting_input' }, { store, run, logs: [], now: 1, scrubber });
    recordEnding(
      { kind: 'failed', error: { code: 'divergence', message: 'saw s3cret-value' } },
      { store, run, logs: [], now: 2, scrubber },
    );
    expect(writes.map((w) => w.update.status)).toEqual(['awaiting_input', 'failed']);
    expect(writes[1]?.update.error?.code).toBe('divergence');
    expect(writes[1]?.update.error?.message).not.toContain('s3cret-value');
  });

  it('a cancel or a newer attempt since it began wins: nothing more is written', () => {
    const { store, writes } = recorder(() => new HubError('conflict', 'moved on'));
    recordEnding({ kind: 'awaiting_input' }, { store, run, logs: [], now: 1, scrubber });
    expect(writes).toHaveLength(1);
  });

  it('an ending the store cannot take still ends the run, as failed', () => {
    const { store, writes } = recorder((update) =>
      update.status === 'completed' ? new HubError('invalid_input', 'too deep') : undefined,
    );
    recordEnding({ kind: 'completed', result: 1 }, { store, run, logs: [], now: 3, scrubber });
    expect(writes.map((w) => w.update.status)).toEqual(['completed', 'failed']);
    expect(writes[1]?.update.error?.code).toBe('result');
    expect(writes[1]?.expected).toEqual({ status: 'running', attempts: 2 });
  });
});
