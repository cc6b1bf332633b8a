/** Every eval task, in the order the report lists them. */
import type { EvalTask } from '../task.ts';
import { OUTCOME_TASKS } from './outcome-tasks.ts';
import { TRACKER_TASKS } from './tracker-tasks.ts';
import { WORKSPACE_TASKS } from './workspace-tasks.ts';

export const TASKS: readonly EvalTask[] = [...TRACKER_TASKS, ...WORKSPACE_TASKS, ...OUTCOME_TASKS];
