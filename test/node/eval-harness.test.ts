/**
 * The eval harness (eval/, `npm run eval`) end to end without a network or a key: recorded
 * transcripts (eval/transcripts/scripted/<arm>/<task>.json, recorded from the scripted best
 * paths) replayed through the real hub (code mode, over stdio) and through plain MCP clients on
 * the same stand-ins (direct), each on a fresh world, checked on the world they leave; a
 * transcript that does the wrong thing fails its checker; the figures are the recorded usage;
 * the task suite covers what the issue asks; and the command line writes the JSON other tools read.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Arm } from '../../eval/arms/arm.ts';
import { codeArm } from '../../eval/arms/code-arm.ts';
import { directArm } from '../../eval/arms/direct-arm.ts';
import { SERVICES } from '../../eval/fixtures/services/index.ts';
import { createEvalHub, type EvalHub } from '../../eval/hub-home.ts';
import type { AssistantBlock } from '../../eval/model/messages.ts';
import { ReplayAdapter } from '../../eval/model/replay.ts';
import { type Transcript, transcriptPath } from '../../eval/model/transcript.ts';
import type { EvalResults } from '../../eval/report.ts';
import { runTask } from '../../eval/runner.ts';
import type { EvalTask, Trait } from '../../eval/task.ts';
import { TASKS } from '../../eval/tasks/index.ts';
import { resetWorld, worldView } from '../../eval/world.ts';
import { collected, REPO } from './cli-process.ts';

const TRANSCRIPTS = join(REPO, 'eval', 'transcripts');
/** Replayed in both arms: J2 (two sources, one approved post), a denial handled, a one-call task. */
const REPLAYED = ['j2-top-bugs-to-eng', 'denied-post-files-issue', 'slack-post-deploy-done'];

const taskOf = (id: string): EvalTask => {
  const task = TASKS.find((candidate) => candidate.id === id);
  if (!task) throw new Error(`no eval task ${id}`);
  return task;
};
const transcriptOf = (arm: 'code' | 'direct', id: string): Transcript =>
  JSON.parse(readFileSync(transcriptPath(TRANSCRIPTS, 'scripted', arm, id), 'utf8')) as Transcript;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const toolUses = (transcript: Transcript) =>
  transcript.turns.flatMap((turn) => turn.content.filter((block) => block.type === 'tool_use')).length;

describe('the task suite', () => {
  it('has at least 30 tasks with unique ids, covering every trait the issue names, mostly multi-step', () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(TASKS.map((task) => task.id)).size).toBe(TASKS.length);
    const traits = new Set(TASKS.flatMap((task) => task.traits));
    for (const trait of ['J2', 'loop', 'join', 'filter', 'approval', 'denial', 'single'] satisfies Trait[])
      expect(traits, trait).toContain(trait);
    expect(TASKS.filter((task) => task.multiStep).length).toBeGreaterThanOrEqual(20);
    for (const task of TASKS)
      for (const source of task.sources) expect(Object.keys(SERVICES)).toContain(source);
  });

  it('every checker fails on the world as the task starts (nothing done is never a success)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-world-'));
    try {
      for (const task of TASKS) {
        resetWorld(dir, task);
        expect(task.check(worldView(dir)).ok, task.id).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('replayed through the real hub and plain clients', { timeout: 180_000 }, () => {
  let hub: EvalHub;
  const arms: Partial<Record<'code' | 'direct', Arm>> = {};
  beforeAll(async () => {
    hub = await createEvalHub(Object.keys(SERVICES));
    arms.code = await codeArm(hub);
    arms.direct = await directArm(hub, Object.keys(SERVICES));
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(Object.values(arms).map((arm) => arm.close()));
    hub?.remove();
  });
  const armOf = (name: 'code' | 'direct') => {
    const arm = arms[name];
    if (!arm) throw new Error(`the ${name} arm did not start`);
    return arm;
  };

  for (const id of REPLAYED)
    for (const name of ['code', 'direct'] as const)
      it(`${id}, ${name}: the transcript does the task again, and the figures are its recorded usage`, async () => {
        const transcript = transcriptOf(name, id);
        const run = await runTask(taskOf(id), armOf(name), () => new ReplayAdapter(transcript), hub.stateDir);
        expect(run.why).toBeTypeOf('string');
        expect(run.success, run.why).toBe(true);
        expect(run.turns).toBe(transcript.turns.length);
        expect(run.calls).toBe(toolUses(transcript));
        expect(run.perTurn).toEqual(transcript.turns.map((turn) => turn.usage));
        expect(run.inputTokens).toBe(sum(transcript.turns.map((turn) => turn.usage.inputTokens)));
        expect(run.outputTokens).toBe(sum(transcript.turns.map((turn) => turn.usage.outputTokens)));
        // Each turn reads everything before it again: what a turn reads never shrinks.
        for (const [i, usage] of run.perTurn.entries())
          if (i > 0) expect(usage.inputTokens).toBeGreaterThan(run.perTurn[i - 1]?.inputTokens ?? 0);
      });

  it('a transcript cut short (the model stops before its last calls) fails the checker', async () => {
    for (const name of ['code', 'direct'] as const) {
      const transcript = transcriptOf(name, REPLAYED[0] as string);
      const final: AssistantBlock[] = [{ type: 'text', text: 'Done.' }];
      const cut: Transcript = {
        ...transcript,
        turns: [
          ...transcript.turns.slice(0, -2),
          { content: final, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, results: [] },
        ],
      };
      const run = await runTask(taskOf(cut.task), armOf(name), () => new ReplayAdapter(cut), hub.stateDir);
      expect(run.success, `${name}: ${run.why}`).toBe(false);
    }
  });

  it('a transcript whose write says the wrong thing fails the checker', async () => {
    const transcript = transcriptOf('direct', REPLAYED[0] as string);
    const wrong: Transcript = JSON.parse(
      JSON.stringify(transcript).replace(/3\. ENG-172/g, '3. OPS-12'),
    ) as Transcript;
    expect(JSON.stringify(wrong)).not.toBe(JSON.stringify(transcript));
    const run = await runTask(
      taskOf(wrong.task),
      armOf('direct'),
      () => new ReplayAdapter(wrong),
      hub.stateDir,
    );
    expect(run.success, run.why).toBe(false);
  });
});

describe('npm run eval', { timeout: 180_000 }, () => {
  it('--replay with --json writes the results other tools read, plus the summary and the plot', async () => {
    const out = mkdtempSync(join(tmpdir(), 'eval-out-'));
    try {
      const json = join(out, 'results.copy.json');
      const id = REPLAYED[2] as string;
      const child = spawn(
        process.execPath,
        [
          '--disable-warning=ExperimentalWarning',
          join(REPO, 'eval', 'run.ts'),
          '--replay',
          TRANSCRIPTS,
          '--model',
          'scripted',
          '--task',
          id,
          '--arms',
          'code,direct',
          '--json',
          json,
          '--out',
          out,
        ],
        { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const result = await collected(child, 'npm run eval');
      expect(result.status, result.stderr).toBe(0);
      const results = JSON.parse(readFileSync(json, 'utf8')) as EvalResults;
      expect(results.mode).toBe('replay');
      expect(results.tasks.map((task) => task.id)).toEqual([id]);
      const [task] = results.tasks;
      for (const arm of ['code', 'direct'] as const) {
        const figures = task?.arms[arm];
        expect(figures).toMatchObject({ success: true });
        for (const key of ['inputTokens', 'outputTokens', 'turns', 'calls', 'ms'] as const)
          expect(figures?.[key]).toBeTypeOf('number');
      }
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`| ${id} |`);
      expect(readFileSync(join(out, 'plot.svg'), 'utf8')).toMatch(/^<svg /);
      expect(existsSync(join(out, 'transcripts', 'scripted', 'code', `${id}.json`))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
