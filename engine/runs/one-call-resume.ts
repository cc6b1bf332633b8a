/**
 * A one-call run goes on once decided, without its caller (spec: Concepts, Profile, direct mode).
 * Its code is nothing but one tool call (engine/one-call.ts: a direct tool's call, `hub call`), so
 * no model's code waits to go on with the result, and a direct-mode model has no `execute` to
 * resume with: when a person records the last decision it waits on, wherever they decide (the
 * approval page here; `hub approve` resumes every run it decides), the host resumes it, and the
 * call is made then. The result stays in the run (`hub runs show`).
 */
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { Run } from '../contracts/runs.ts';
import { isHubError } from '../errors.ts';
import { oneCallOf } from '../one-call.ts';

export interface OneCallResumeDeps {
  desk: { runs: { get(runId: string): Run; openInputs(runId: string): readonly unknown[] } };
  runs(): Promise<{ resume(runId: string): Promise<ExecuteEnvelope> }>;
}

/** Whether `run` is a one-call run: its code is one-call code, nothing else. */
export const isOneCallRun = (run: Pick<Run, 'code'>): boolean => oneCallOf(run.code) !== undefined;

/**
 * Resumes `runId` when it is a one-call run that waits on no one now; answers its envelope, or
 * undefined when it was left as it is: not one-call, still waiting, or being run already (another
 * attempt), or the hub busy (it stays decided; `hub approve <runId>` goes on with it).
 */
export async function resumeDecidedOneCall(
  deps: OneCallResumeDeps,
  runId: string,
): Promise<ExecuteEnvelope | undefined> {
  const run = deps.desk.runs.get(runId);
  if (run.status !== 'awaiting_input' || !isOneCallRun(run)) return undefined;
  if (deps.desk.runs.openInputs(runId).length > 0) return undefined;
  try {
    return await (await deps.runs()).resume(runId);
  } catch (error) {
    if (isHubError(error, 'conflict') || isHubError(error, 'unavailable')) return undefined;
    throw error;
  }
}
