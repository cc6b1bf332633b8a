/**
 * `capabilities hub exec | call | runs | approve | cancel`: running code from a terminal, and the
 * person's side of approvals. `approve` is a person-input channel: it shows each pending call
 * (address, connection, what the tool says it does, the arguments, why it asks, when it
 * expires), takes once / run / always / deny at a prompt (or `--choice`, for a person scripting
 * at their own terminal), records it through the one person-input module, and resumes the run.
 * `exec` and `call` run in the full view (FULL_VIEW): a person at their own terminal is not
 * curated by a profile, `default` included (profiles curate what agents' endpoints see).
 * What an upstream or guest code wrote (a summary, a log line, an error) is shown inert, each on
 * one line (engine/inert.ts), so nothing it says passes for the hub's own words.
 *
 * One vocabulary per screen: a command that runs code (`exec`, `call`, `approve`, `cancel`) prints
 * the envelope, in the envelope's statuses (what `execute` tells the model: `awaiting_approval`,
 * `awaiting_connection`, …); `runs` and `runs show` print what is stored, in the run's statuses
 * (`awaiting_input`, `expired`, …, the words `runs --status` and the dashboard take).
 */
import { userInfo } from 'node:os';
import { type Command, Option } from 'commander';
import { SHORTENED_NOTE } from '../../engine/approvals/args-preview.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { FULL_VIEW } from '../../engine/contracts/profiles.ts';
import type { DecisionChoice, PendingInput, RunStatus } from '../../engine/contracts/runs.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { inertJson, inertLine } from '../../engine/inert.ts';
import { hubAction } from './hub-action.ts';
import type { Output } from './output.ts';

const CHOICES: readonly DecisionChoice[] = ['once', 'run', 'always', 'deny'];

/** Every run status, for `runs --status` (the record makes the compiler hold the list whole). */
const RUN_STATUSES = Object.keys({
  running: true,
  awaiting_input: true,
  completed: true,
  failed: true,
  cancelled: true,
  expired: true,
} satisfies Record<RunStatus, true>);

/**
 * The envelope as a person reads it: status, result or error, logs, what waits. What guest code
 * or an upstream wrote is inert, each log line and message on one line of its own. `status` is
 * the word the screen speaks: the envelope's own, or (for `runs show`) the run's.
 */
export function renderEnvelope(envelope: ExecuteEnvelope, status: string = envelope.status): string {
  const lines = [`run ${envelope.runId}: ${status}`];
  if (envelope.status === 'running') {
    lines.push(
      `  another attempt is running it right now; see how it ends with \`capabilities hub runs show ${envelope.runId}\``,
    );
  }
  if (envelope.result !== undefined) lines.push(inertJson(JSON.stringify(envelope.result, null, 2)));
  if (envelope.error)
    lines.push(`error ${inertLine(envelope.error.code)}: ${inertLine(envelope.error.message)}`);
  for (const log of envelope.logs ?? []) lines.push(`  log: ${inertLine(log)}`);
  for (const call of envelope.calls)
    lines.push(`  call ${inertLine(call.address)}: ${call.ok ? 'ok' : 'failed'} (${call.ms} ms)`);
  for (const pending of envelope.pending ?? [])
    lines.push(
      `  waiting: ${inertLine(pending.address ?? '')} — ${inertLine(pending.summary)}\n    ${inertLine(pending.message ?? '')}`,
    );
  for (const notice of envelope.notices ?? []) lines.push(`  notice: ${inertLine(notice)}`);
  if (envelope.truncated)
    lines.push(`  (cut to the inline budget: ${Object.keys(envelope.truncated).join(', ')})`);
  return lines.join('\n');
}

/** The arguments a person is shown: the preview, or with `full` the whole of them when kept. */
function shownArguments(pending: PendingInput, full: boolean): string {
  return full && pending.args ? JSON.stringify(pending.args, null, 2) : pending.argsPreview;
}

/**
 * Prints the envelope of a run this command ran (exec, call, approve, cancel) and sets the exit
 * code by one rule: 1 when the run failed; 0 otherwise, `awaiting_approval` and
 * `awaiting_connection` included (the command did its part: the run waits for a person, who
 * decides with `hub approve`). `runs` and `runs show` report what is stored and exit 0.
 */
function report(out: Output, envelope: ExecuteEnvelope): void {
  out.result(envelope, renderEnvelope(envelope));
  if (envelope.status === 'failed') process.exitCode = 1;
}

export function registerRuns(hub: Command): void {
  hub
    .command('exec')
    .description('Run code in the sandbox, as execute does')
    .argument(
      '<code>',
      "JavaScript (or TypeScript): the body of an async function, e.g. 'return await memory.read_graph({})'",
    )
    .action(
      hubAction(
        (out, code: string) =>
          async ({ runs }) =>
            report(out, await (await runs()).execute(code, FULL_VIEW)),
      ),
    );

  hub
    .command('call')
    .description('Call one tool through the same policy path as code')
    .argument('<address>', 'namespace.tool')
    .argument('[json]', 'the input, as JSON', parseInput, {})
    .option('--connection <name>', 'a connection other than the default')
    .action(
      hubAction(async (out, address: string, input: unknown, options: { connection?: string }) => {
        const { callCode } = await import('../../engine/one-call.ts');
        const code = callCode(address, input, options.connection);
        return async ({ runs }) => report(out, await (await runs()).execute(code, FULL_VIEW));
      }),
    );

  const runs = hub
    .command('runs')
    .description('List runs, newest first')
    .addOption(new Option('--status <status>', 'only runs in this state').choices(RUN_STATUSES))
    .option('--limit <n>', 'at most this many (newest first)', parseLimit, RUNS_SHOWN)
    .action(
      hubAction((out, options: { status?: RunStatus; limit: number }) => async ({ desk }) => {
        const list = desk.runs.list(options.status, options.limit);
        if (list.length === options.limit)
          out.note(`The newest ${options.limit} runs; --limit <n> shows more.`);
        const text =
          list.length === 0
            ? 'No runs.'
            : list
                .map(
                  (r) =>
                    `${r.id}  ${r.status.padEnd(14)}  ${new Date(r.createdAt).toISOString()}  attempts ${r.attempts}`,
                )
                .join('\n');
        out.result({ runs: list.map(({ code: _code, ...rest }) => rest) }, text);
      }),
    );

  runs
    .command('show')
    .description('Show one run: status, pending calls and its journal')
    .argument('<runId>')
    .action(
      hubAction((out, runId: string) => async (engine) => {
        const envelope = (await engine.runs()).envelope(runId);
        const { status } = engine.desk.runs.get(runId);
        const journal = engine.desk.runs.journal(runId);
        const rows = journal.map(
          (e) =>
            `  ${String(e.seq).padStart(3)}  ${inertLine(e.address).padEnd(32)} ${inertLine(e.connection ?? '-').padEnd(10)} ${e.decision.effect.padEnd(5)} ` +
            (e.outcome ? (e.outcome.ok ? 'ok' : `error ${inertLine(e.outcome.error.code)}`) : 'in doubt'),
        );
        out.result(
          { ...envelope, journal },
          `${renderEnvelope(envelope, status)}\njournal:\n${rows.join('\n') || '  (no calls)'}`,
        );
      }),
    );

  hub
    .command('approve')
    .description('Decide the pending calls of a run, then resume it')
    .argument('<runId>')
    .addOption(
      new Option('--choice <choice>', 'for every pending call (else you are asked)').choices(CHOICES),
    )
    .option('--full', 'show the whole arguments of each call, not the preview that shortens long values')
    .action(
      hubAction(
        (out, runId: string, options: { choice?: DecisionChoice; full?: boolean }) => async (engine) => {
          const { canPrompt } = await import('./review-prompt.ts');
          // None open (all decided, but no one resumed the run yet: the hub was busy): resume it.
          const open = engine.desk.runs.openInputs(runId);
          for (const pending of open) {
            if (pending.kind === 'connection') {
              // Not a decision: the person signs the connection in again, then the run resumes.
              out.note(
                `${inertLine(pending.address)}${pending.connection ? ` on ${inertLine(pending.connection)}` : ''} waits for a sign-in, not a decision: ${inertLine(pending.reason)}`,
              );
              continue;
            }
            out.note(
              [
                `${inertLine(pending.address)}${pending.connection ? ` on ${inertLine(pending.connection)}` : ''}: ${inertLine(pending.summary)}`,
                `  why: ${inertLine(pending.reason)}`,
                `  expires: ${new Date(pending.expiresAt).toISOString()}`,
                `  arguments:\n${inertJson(shownArguments(pending, options.full === true)).replace(/^/gm, '    ')}`,
              ].join('\n'),
            );
            if (!options.full && pending.argsPreview.startsWith(SHORTENED_NOTE)) {
              out.note(
                `  (long values are shortened above; \`capabilities hub approve ${runId} --full\` shows them whole)`,
              );
            }
            let choice = options.choice;
            if (!choice) {
              if (!canPrompt({ yes: false, input: out.options.input })) {
                throw new HubError(
                  'invalid_input',
                  'a person decides here: run this in a terminal, or pass --choice once|run|always|deny',
                );
              }
              const { select } = await import('@inquirer/prompts');
              choice = await select<DecisionChoice>({
                message: `Decide ${inertLine(pending.address)}`,
                choices: [
                  { name: 'Allow once', value: 'once' },
                  { name: 'Allow for this run', value: 'run' },
                  { name: 'Always allow (pinned to its current contract)', value: 'always' },
                  { name: 'Deny', value: 'deny' },
                ],
              });
            }
            engine.desk.runs.decide({
              pendingId: pending.id,
              choice,
              channel: 'cli',
              who: userInfo().username,
            });
          }
          const runs = await engine.runs();
          try {
            report(out, await runs.resume(runId));
          } catch (error) {
            // The decisions are recorded. Another attempt (the model's resume) runs the run right
            // now: it goes on with them. The hub is busy: the run waits, decided, for a resume.
            if (isHubError(error, 'conflict') && runs.envelope(runId).status === 'running') {
              report(out, runs.envelope(runId));
              return;
            }
            if (isHubError(error, 'unavailable')) {
              // A one-call run (a direct tool's, `hub call`'s) has no model to resume it.
              const { isOneCallRun } = await import('../../engine/runs/one-call-resume.ts');
              const resumers = isOneCallRun(engine.desk.runs.get(runId))
                ? `\`capabilities hub approve ${runId}\` again`
                : `\`capabilities hub approve ${runId}\` again, or the model's \`execute({ resume })\``;
              out.note(
                `Your decisions are recorded. ${error.message.replace(/ Call .*$/, '')} The run goes on when it is resumed: ${resumers}.`,
              );
              report(out, runs.envelope(runId));
              return;
            }
            throw error;
          }
        },
      ),
    );

  hub
    .command('cancel')
    .description('Cancel a run')
    .argument('<runId>')
    .action(
      hubAction(
        (out, runId: string) =>
          async ({ runs }) =>
            report(out, (await runs()).cancel(runId)),
      ),
    );
}

/** `hub call`'s input: JSON, or a usage error saying why it is not. */
/** How many runs `hub runs` lists unless told. */
const RUNS_SHOWN = 100;

function parseLimit(text: string): number {
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1)
    throw new HubError('invalid_input', `--limit takes a whole number of runs, 1 or more, not ${text}`);
  return limit;
}

function parseInput(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new HubError('invalid_input', `the input is not JSON: ${(error as Error).message}`);
  }
}
