/**
 * The world a task runs in: every service's state file, reset to its seed (and the task's own
 * changes to it) before each run of each arm, with the call logs emptied; and the view a checker
 * reads afterwards.
 */
import type { Json } from './fixtures/service.ts';
import { SERVICES } from './fixtures/services/index.ts';
import { clearCalls, readCalls, readState, writeState } from './fixtures/state-files.ts';
import type { EvalTask, WorldView } from './task.ts';

/** Writes the starting world of `task` into `dir`. */
export function resetWorld(dir: string, task: Pick<EvalTask, 'seed'>): void {
  const states: Record<string, Json> = {};
  for (const [namespace, service] of Object.entries(SERVICES)) states[namespace] = service.seed();
  task.seed?.(states);
  for (const [namespace, state] of Object.entries(states)) {
    writeState(dir, namespace, state);
    clearCalls(dir, namespace);
  }
}

/** The world in `dir` as a checker reads it. */
export function worldView(dir: string): WorldView {
  return {
    state: <S extends Json>(namespace: string) => readState(dir, namespace) as S,
    calls: (namespace) => readCalls(dir, namespace),
  };
}
