/** Every eval task, in the order the report lists them. */
import type { EvalTask } from '../task.ts';

export const TASKS: readonly EvalTask[] = [];
