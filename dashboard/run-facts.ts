/**
 * A run's status and duration as the Runs pages say them: the status in words, and how long the
 * run took (start to its last update once ended, start to now while it goes on). Pure: `now` is
 * passed in.
 */
import type { Run, RunStatus } from '../engine/contracts/runs.ts';
import { span } from './when.ts';

const STATUS: Readonly<Record<RunStatus, string>> = {
  running: 'running',
  awaiting_input: 'waiting for a person',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** The run's status in words. */
export const statusOf = (run: Run): string => STATUS[run.status];

/** True once nothing more happens to the run. */
export const hasEnded = (run: Run): boolean => run.status !== 'running' && run.status !== 'awaiting_input';

/** How long the run took, or `… so far` while it goes on. */
export function durationOf(run: Run, now: number): string {
  return hasEnded(run) ? span(run.updatedAt - run.createdAt) : `${span(now - run.createdAt)} so far`;
}
