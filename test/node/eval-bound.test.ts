/**
 * The scripted bound (`npm run eval -- --offline`) as a test: every task's best path, played in
 * every arm (the hub's code mode; plain MCP clients on every stand-in, and on only the task's;
 * the hub's direct-mode profile) through the real processes, ends in a world its checker accepts;
 * and on every multi-step task code mode reads at least 40% fewer input tokens than direct with
 * every server loaded (the spec's target, task by task). Against only the task's servers code mode
 * does not always win (the README says where); that is reported, not asserted. Token counts are the tokenizer's, so the figures are deterministic: no time is
 * asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Arm, ArmName } from '../../eval/arms/arm.ts';
import { codeArm } from '../../eval/arms/code-arm.ts';
import { directArm } from '../../eval/arms/direct-arm.ts';
import { hubDirectArm } from '../../eval/arms/hub-direct-arm.ts';
import { SERVICES } from '../../eval/fixtures/services/index.ts';
import { createEvalHub, type EvalHub } from '../../eval/hub-home.ts';
import { ScriptedAdapter } from '../../eval/model/scripted.ts';
import { type ArmRun, runTask } from '../../eval/runner.ts';
import { TASKS } from '../../eval/tasks/index.ts';

/** The spec's target: code mode at most 60% of direct's input tokens on a multi-step task. */
const TARGET = 0.6;

describe('the scripted bound', { timeout: 600_000 }, () => {
  let hub: EvalHub;
  const arms = new Map<ArmName, Arm>();
  beforeAll(async () => {
    const namespaces = Object.keys(SERVICES);
    hub = await createEvalHub(namespaces);
    arms.set('code', await codeArm(hub));
    arms.set('direct', await directArm(hub, namespaces));
    arms.set('direct-needed', await directArm(hub, namespaces, { needed: true }));
    arms.set('hub-direct', await hubDirectArm(hub));
  }, 300_000);
  afterAll(async () => {
    await Promise.allSettled([...arms.values()].map((arm) => arm.close()));
    hub?.remove();
  });

  it('every task succeeds in every arm, and code mode reads at least 40% fewer tokens on every multi-step task', async () => {
    const failures: string[] = [];
    const over: string[] = [];
    for (const task of TASKS) {
      const runs = new Map<ArmName, ArmRun>();
      for (const [name, arm] of arms) {
        const script = name === 'code' ? task.scripts.code : task.scripts.direct;
        const run = await runTask(
          task,
          arm,
          (_task, _arm, replies) => new ScriptedAdapter(script, arm.nameFor, replies),
          hub.stateDir,
        );
        runs.set(name, run);
        if (!run.success) failures.push(`${task.id} (${name}): ${run.why}`);
      }
      const code = runs.get('code')?.inputTokens ?? Number.NaN;
      const direct = runs.get('direct')?.inputTokens ?? Number.NaN;
      if (task.multiStep && !(code / direct <= TARGET))
        over.push(`${task.id}: ${code} / ${direct} = ${(code / direct).toFixed(2)}`);
    }
    expect(failures).toEqual([]);
    expect(over).toEqual([]);
  });
});
