/**
 * The host goes on with a one-call run once decided (engine/runs/one-call-resume.ts): only a run
 * whose code is one-call code, only when it waits on no one more, and a run another attempt is
 * running, or a busy hub, leaves it as it is.
 */
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { Run } from '../../engine/contracts/runs.ts';
import { HubError } from '../../engine/errors.ts';
import { callCode } from '../../engine/one-call.ts';
import { resumeDecidedOneCall } from '../../engine/runs/one-call-resume.ts';

const run = (code: string, status: Run['status'] = 'awaiting_input'): Run => ({
  id: 'run_a',
  profile: 'poster',
  status,
  code,
  seed: '00',
  clockOrigin: 0,
  attempts: 1,
  logs: [],
  notices: [],
  createdAt: 0,
  updatedAt: 0,
});

function world(stored: Run, open: number, resume: () => Promise<ExecuteEnvelope> = async () => completed) {
  const resumed: string[] = [];
  return {
    resumed,
    deps: {
      desk: { runs: { get: () => stored, openInputs: () => Array.from({ length: open }) } },
      runs: async () => ({
        resume: (runId: string) => {
          resumed.push(runId);
          return resume();
        },
      }),
    },
  };
}

const completed: ExecuteEnvelope = { runId: 'run_a', status: 'completed', calls: [], result: { id: 1 } };

describe('resuming a decided one-call run', () => {
  it('resumes a one-call run that waits on no one more, and answers its envelope', async () => {
    const { deps, resumed } = world(run(callCode('board.post', { text: 'hi' })), 0);
    expect(await resumeDecidedOneCall(deps, 'run_a')).toEqual(completed);
    expect(resumed).toEqual(['run_a']);
  });

  it('leaves code a model wrote, a run still waiting, and a run no longer waiting', async () => {
    for (const [stored, open] of [
      [run('return await board.post({ text: "hi" });'), 0],
      [run(callCode('board.post', {})), 1],
      [run(callCode('board.post', {}), 'completed'), 0],
    ] as const) {
      const { deps, resumed } = world(stored, open);
      expect(await resumeDecidedOneCall(deps, 'run_a')).toBeUndefined();
      expect(resumed).toEqual([]);
    }
  });

  it('leaves a run another attempt is running, or that a busy hub cannot run now', async () => {
    for (const code of ['conflict', 'unavailable'] as const) {
      const { deps } = world(run(callCode('board.post', {})), 0, async () => {
        throw new HubError(code, 'not now');
      });
      expect(await resumeDecidedOneCall(deps, 'run_a')).toBeUndefined();
    }
  });
});
