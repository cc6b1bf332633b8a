/**
 * `capabilities hub exec | call | runs | approve | cancel`: running code from a terminal, and the
 * person's side of approvals. `approve` is a person-input channel: it shows each pending call
 * (address, connection, what the tool says it does, the arguments, why it asks, when it
 * expires), takes once / run / always / deny at a prompt (or `--choice`, for a person scripting
 * at their own terminal), records it through the one person-input module, and resumes the run.
 * What an upstream or guest code wrote (a summary, a log line, an error) is shown inert, each on
 * one line (engine/inert.ts), so nothing it says passes for the hub's own words.
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { DecisionChoice, PendingInput } from '../../engine/contracts/runs.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { inertJson, inertLine } from '../../engine/inert.ts';
import { SHORTENED_NOTE } from '../../engine/runs/args-preview.ts';
import type { Output } from './output.ts';

const CHOICES: readonly DecisionChoice[] = ['once', 'run', 'always', 'deny'];

/**
 * The envelope as a person reads it: status, result or error, logs, what waits. What guest code
 * or an upstream wrote is inert, each log line and message on one line of its own.
 */
export function renderEnvelope(envelope: ExecuteEnvelope): string {
  const lines = [`run ${envelope.runId}: ${envelope.status}`];
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

function report(out: Output, envelope: ExecuteEnvelope): void {
  out.result(envelope, renderEnvelope(envelope));
  if (envelope.status === 'failed') process.exitCode = 1;
}

export function registerRuns(hub: Command, output: () => Output): void {
  hub
    .command('exec')
    .description('Run code in the sandbox, as execute does')
    .argument(
      '<code>',
      "JavaScript (or TypeScript): the body of an async function, e.g. 'return await memory.read_graph({})'",
    )
    .action(async (code: string) => {
      const out = output();
      const { withHub } = await import('./with-hub.ts');
      await withHub(out, async (_h, context) => report(out, await (await context.runs()).execute(code)));
    });

  hub
    .command('call')
    .description('Call one tool through the same policy path as code')
    .argument('<address>', 'namespace.tool')
    .argument('[json]', 'the input, as JSON', '{}')
    .option('--connection <name>', 'a connection other than the default')
    .action(async (address: string, json: string, options: { connection?: string }) => {
      const out = output();
      let input: unknown;
      try {
        input = JSON.parse(json);
      } catch (error) {
        throw new HubError('invalid_input', `the input is not JSON: ${(error as Error).message}`);
      }
      const [{ withHub }, { callCode }] = await Promise.all([
        import('./with-hub.ts'),
        import('../../engine/address.ts'),
      ]);
      const code = callCode(address, input, options.connection);
      await withHub(out, async (_h, context) => report(out, await (await context.runs()).execute(code)));
    });

  const runs = hub
    .command('runs')
    .description('List runs, newest first')
    .option(
      '--status <status>',
      'only runs in this state (running, awaiting_input, completed, failed, cancelled, expired)',
    )
    .action(async (options: { status?: string }) => {
      const out = output();
      const { withHub } = await import('./with-hub.ts');
      const { RunStatus } = await import('../../engine/contracts/runs.ts');
      const status = options.status === undefined ? undefined : RunStatus.safeParse(options.status);
      if (status && !status.success)
        throw new HubError('invalid_input', `unknown status "${options.status}"`);
      await withHub(out, async (_h, { desk }) => {
        const list = desk.runs.list(status?.data);
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
      });
    });

  runs
    .command('show')
    .description('Show one run: status, pending calls and its journal')
    .argument('<runId>')
    .action(async (runId: string) => {
      const out = output();
      const { withHub } = await import('./with-hub.ts');
      await withHub(out, async (_h, context) => {
        const envelope = (await context.runs()).envelope(runId);
        const journal = context.desk.runs.journal(runId);
        const rows = journal.map(
          (e) =>
            `  ${String(e.seq).padStart(3)}  ${inertLine(e.address).padEnd(32)} ${inertLine(e.connection ?? '-').padEnd(10)} ${e.decision.effect.padEnd(5)} ` +
            (e.outcome ? (e.outcome.ok ? 'ok' : `error ${inertLine(e.outcome.error.code)}`) : 'in doubt'),
        );
        out.result(
          { ...envelope, journal },
          `${renderEnvelope(envelope)}\njournal:\n${rows.join('\n') || '  (no calls)'}`,
        );
      });
    });

  hub
    .command('approve')
    .description('Decide the pending calls of a run, then resume it')
    .argument('<runId>')
    .option('--choice <choice>', 'once, run, always or deny, for every pending call (else you are asked)')
    .option('--full', 'show the whole arguments of each call, not the preview that shortens long values')
    .action(async (runId: string, options: { choice?: string; full?: boolean }) => {
      const out = output();
      if (options.choice !== undefined && !CHOICES.includes(options.choice as DecisionChoice)) {
        throw new HubError('invalid_input', `--choice is one of ${CHOICES.join(', ')}`);
      }
      const [{ withHub }, { canPrompt }] = await Promise.all([
        import('./with-hub.ts'),
        import('./review-prompt.ts'),
      ]);
      await withHub(out, async (_h, context) => {
        // None open (all decided, but no one resumed the run yet: the hub was busy): resume it.
        const open = context.desk.runs.openInputs(runId);
        for (const pending of open) {
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
          let choice = options.choice as DecisionChoice | undefined;
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
          context.desk.runs.decide({
            pendingId: pending.id,
            choice,
            channel: 'cli',
            who: userInfo().username,
          });
        }
        const runs = await context.runs();
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
            out.note(
              `Your decisions are recorded. ${error.message.replace(/ Call .*$/, '')} The run goes on when it is resumed: \`capabilities hub approve ${runId}\` again, or the model's \`execute({ resume })\`.`,
            );
            report(out, runs.envelope(runId));
            return;
          }
          throw error;
        }
      });
    });

  hub
    .command('cancel')
    .description('Cancel a run')
    .argument('<runId>')
    .action(async (runId: string) => {
      const out = output();
      const { withHub } = await import('./with-hub.ts');
      await withHub(out, async (_h, context) => report(out, (await context.runs()).cancel(runId)));
    });
}
