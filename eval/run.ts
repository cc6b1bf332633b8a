/**
 * `npm run eval`: runs the eval's tasks in each arm and writes the results.
 *
 *   npm run eval -- --offline                 the scripted bound: each task's best path, both arms
 *   npm run eval -- --live --model <id>       a model through the Anthropic API (ANTHROPIC_API_KEY)
 *   npm run eval -- --replay <dir>            transcripts recorded under <dir>/<model>/<arm>/<task>.json
 *   options: --task <id> (repeatable), --arms code,direct,direct-needed,hub-direct, --json <file>, --out <dir>
 *
 * Every run's transcript is recorded under <out>/transcripts (live runs can be replayed from
 * there); <out> (default eval/out) also gets results.json, summary.md and plot.svg.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { ARM_NAMES, type Arm, type ArmName } from './arms/arm.ts';
import { codeArm } from './arms/code-arm.ts';
import { directArm } from './arms/direct-arm.ts';
import { hubDirectArm } from './arms/hub-direct-arm.ts';
import { SERVICES } from './fixtures/services/index.ts';
import { createEvalHub } from './hub-home.ts';
import { AnthropicAdapter } from './model/anthropic.ts';
import { ReplayAdapter } from './model/replay.ts';
import { ScriptedAdapter } from './model/scripted.ts';
import { transcriptPath, writeTranscript } from './model/transcript.ts';
import { type EvalResults, markdownTable, svgPlot, taskResult } from './report.ts';
import { type AdapterFor, type ArmRun, runTask } from './runner.ts';
import { TASKS } from './tasks/index.ts';

interface Options {
  offline?: boolean;
  live?: boolean;
  replay?: string;
  model?: string;
  task: string[];
  arms: string;
  json?: string;
  out: string;
}

const program = new Command('eval')
  .description('What a model pays: the eval tasks in code mode and direct, checked on the end state')
  .addOption(
    new Option('--offline', 'the scripted bound: each task’s best path in each arm').conflicts([
      'live',
      'replay',
    ]),
  )
  .addOption(
    new Option('--live', 'a model through the Anthropic API (needs ANTHROPIC_API_KEY and --model)').conflicts(
      'replay',
    ),
  )
  .option('--replay <dir>', 'play recorded transcripts from <dir>/<model>/<arm>/<task>.json')
  .option(
    '--model <id>',
    'the model: an Anthropic model id (--live), or the recorded model’s name (--replay)',
  )
  .option('--task <id>', 'run only this task (repeatable)', (id: string, ids: string[]) => [...ids, id], [])
  .option('--arms <list>', `arms to run, comma-separated (${ARM_NAMES.join(', ')})`, ARM_NAMES.join(','))
  .option('--json <file>', 'also write the results as JSON to <file>')
  .option('--out <dir>', 'where results, summary, plot and transcripts go', 'eval/out')
  .parse();

const options = program.opts<Options>();
const mode: EvalResults['mode'] = options.live ? 'live' : options.replay ? 'replay' : 'offline';
if (mode === 'live' && !options.model) program.error('--live needs --model <id> (an Anthropic model id)');
if (mode === 'replay' && !options.model)
  program.error('--replay needs --model <name> (the recorded model, e.g. scripted)');
const arms = options.arms.split(',').map((arm) => arm.trim()) as ArmName[];
const unknownArm = arms.find((arm) => !ARM_NAMES.includes(arm));
if (unknownArm) program.error(`no arm ${unknownArm}: choose from ${ARM_NAMES.join(', ')}`);
const unknownTask = options.task.find((id) => !TASKS.some((task) => task.id === id));
if (unknownTask)
  program.error(`no task ${unknownTask}: the tasks are ${TASKS.map((task) => task.id).join(', ')}`);
const tasks = options.task.length > 0 ? TASKS.filter((task) => options.task.includes(task.id)) : TASKS;

const out = resolve(options.out);
const recorded = join(out, 'transcripts');
const adapterFor: AdapterFor = (task, arm, replies) => {
  if (mode === 'live') return new AnthropicAdapter(options.model as string);
  if (mode === 'replay')
    return ReplayAdapter.load(
      transcriptPath(resolve(options.replay as string), options.model as string, arm.name, task.id),
    );
  const script = arm.name === 'code' ? task.scripts.code : task.scripts.direct;
  return new ScriptedAdapter(script, arm.nameFor, replies);
};

const namespaces = Object.keys(SERVICES);
console.error(
  `eval: ${tasks.length} tasks × ${arms.join(', ')} (${mode}); starting a hub with ${namespaces.join(', ')}…`,
);
const hub = await createEvalHub(namespaces);
const results: EvalResults = {
  model:
    mode === 'offline'
      ? 'scripted'
      : mode === 'replay'
        ? `replay of ${options.model}`
        : (options.model as string),
  mode,
  date: new Date().toISOString().slice(0, 10),
  tasks: [],
};
const started: Arm[] = [];
try {
  const byName = new Map<ArmName, Arm>();
  for (const name of arms) {
    const arm =
      name === 'code'
        ? await codeArm(hub)
        : name === 'hub-direct'
          ? await hubDirectArm(hub)
          : await directArm(hub, namespaces, { needed: name === 'direct-needed' });
    started.push(arm);
    byName.set(name, arm);
  }
  for (const task of tasks) {
    const runs: Partial<Record<ArmName, ArmRun>> = {};
    for (const [name, arm] of byName) {
      const run = await runTask(task, arm, adapterFor, hub.stateDir);
      runs[name] = run;
      writeTranscript(recorded, run.transcript);
      console.error(
        `${task.id} ${name}: ${run.success ? 'ok' : `FAILED (${run.why})`}, ${run.inputTokens} in / ${run.outputTokens} out, ${run.turns} turns, ${run.calls} calls`,
      );
    }
    results.tasks.push(taskResult(task, runs));
  }
} finally {
  await Promise.allSettled(started.map((arm) => arm.close()));
  hub.remove();
}

mkdirSync(out, { recursive: true });
const json = `${JSON.stringify(results, null, 1)}\n`;
writeFileSync(join(out, 'results.json'), json);
if (options.json) writeFileSync(resolve(options.json), json);
const table = markdownTable(results);
writeFileSync(join(out, 'summary.md'), table);
writeFileSync(join(out, 'plot.svg'), svgPlot(results));
console.log(table);
console.error(`eval: wrote ${join(out, 'summary.md')}, plot.svg, results.json and transcripts/`);
process.exitCode = results.tasks.every((task) => Object.values(task.arms).every((arm) => arm.success))
  ? 0
  : 1;
