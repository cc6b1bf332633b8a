/**
 * `capabilities hub connect | disconnect | rollback`: one `capabilities` entry into each harness
 * (Claude Code, Codex, Cursor, Claude Desktop) serving one profile (`--profile`, default
 * `default`), out again, or every harness file back to the
 * last snapshot byte for byte. The work is local/connect/; this file reads the options, checks
 * this checkout's CLI before connect writes anything, for `--replace` reads the hub's sources
 * (the hub must exist: it is never created here), asks before replacing an entry that differs,
 * and prints one line per harness (with the entries `--replace` turned off and `disconnect` put
 * back), and for Antigravity, Hermes and pi the entry to add by hand. Connect then installs the
 * hub's skills into the skill folders of the harnesses it connected, and disconnect takes them out
 * (connect-skills.ts). A harness or skill that failed makes the exit code 1 after the others were done.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Source } from '../../engine/contracts/sources.ts';
import { HubError } from '../../engine/errors.ts';
import type { HarnessOutcome } from '../connect/connect.ts';
import type { HarnessId, HarnessPlace } from '../connect/harnesses.ts';
import type { PrintedEntry } from '../connect/printed-harnesses.ts';
import type { RollbackFile } from '../connect/rollback.ts';
import type { SkillOutcome } from '../connect/skill-install.ts';
import { outputOf } from './hub-action.ts';
import type { Output } from './output.ts';

interface EditOptions {
  client?: string;
  yes?: boolean;
  replace?: boolean;
  profile?: string;
  checkout?: boolean;
}

/** CAPABILITIES_HOME for the entry, when the hub is not at the default place (~/.capabilities). */
function hubHomeToPass(): string | undefined {
  const set = process.env.CAPABILITIES_HOME?.trim();
  return set && resolve(set) !== join(homedir(), '.capabilities') ? set : undefined;
}

const place = (): HarnessPlace => ({ home: homedir(), env: process.env, platform: process.platform });

const WORDS: Record<HarnessOutcome['status'], string> = {
  connected: 'connected',
  unchanged: 'unchanged',
  kept: 'kept',
  disconnected: 'disconnected',
  'not-found': 'not found',
  failed: 'FAILED',
};

interface Report {
  outcomes: HarnessOutcome[];
  snapshot?: string;
  /** Harnesses connect only tells about (Antigravity, Hermes, pi): the entry and its file. */
  printed?: PrintedEntry[];
  /** The hub's skills installed (connect) or removed (disconnect), folder by folder. */
  skills?: SkillOutcome[];
}

async function printReport(out: Output, title: string, report: Report): Promise<void> {
  const lines = [title];
  for (const o of report.outcomes) {
    lines.push(`  ${o.title}: ${WORDS[o.status]}  ${o.file}`);
    if (o.turnedOff) lines.push(`    turned off (the hub has them): ${o.turnedOff.join(', ')}`);
    if (o.putBack) lines.push(`    put back: ${o.putBack.join(', ')}`);
    if (o.message) lines.push(`    ${o.message}`);
  }
  for (const p of report.printed ?? []) {
    lines.push(`  ${p.title}: not written; add this to ${p.file}, beside the servers already there:`);
    lines.push(...p.entry.split('\n').map((line) => `      ${line}`));
  }
  if (report.skills?.length) {
    const { skillLines } = await import('./connect-skills.ts');
    lines.push(...skillLines(report.skills));
  }
  if (report.outcomes.length === 0 && !report.printed?.length) {
    lines.push('  No harness found (Claude Code, Codex, Cursor, Claude Desktop); name one with --client.');
  }
  if (report.snapshot)
    lines.push(
      `The files as they were are in ${report.snapshot}; \`capabilities hub rollback\` puts them back.`,
    );
  out.result(report, lines.join('\n'));
  if (
    report.outcomes.some((o) => o.status === 'failed') ||
    report.skills?.some((s) => s.status === 'failed')
  ) {
    process.exitCode = 1;
  }
}

/** The sources of the hub at CAPABILITIES_HOME, for --replace; a hub that does not exist is an error. */
async function hubSources(out: Output): Promise<Source[]> {
  const { homePaths } = await import('../home.ts');
  const paths = homePaths();
  if (!existsSync(paths.hubFile)) {
    throw new HubError(
      'not_found',
      `there is no hub at ${paths.hub}, so --replace has nothing to replace with; create it with \`capabilities hub init\` and add its sources, then connect again`,
    );
  }
  const { withHub } = await import('../open-hub.ts');
  // Only sources the hub can serve: one whose tools were never listed (an import that failed to
  // start) would take the working direct entry away and give the agent nothing for it.
  return withHub(out, async ({ desk }) =>
    desk.sources
      .list()
      .filter(({ listedAt, tools }) => listedAt !== null && tools > 0)
      .map(({ source }) => source),
  );
}

/**
 * The profile the entry serves, checked before anything is written: `default` always exists; any
 * other must be a profile of the hub at CAPABILITIES_HOME (which must exist: never created here).
 */
async function profileToServe(out: Output, profile: string | undefined): Promise<string> {
  if (profile === undefined || profile === 'default') return 'default';
  const { homePaths } = await import('../home.ts');
  const paths = homePaths();
  if (!existsSync(paths.hubFile)) {
    throw new HubError(
      'not_found',
      `there is no hub at ${paths.hub}, so it has no profile "${profile}"; create it with \`capabilities hub init\`, then the profile with \`capabilities hub profiles create ${profile}\``,
    );
  }
  const { withHub } = await import('../open-hub.ts');
  return withHub(out, async ({ profiles }) => profiles.get(profile).name);
}

async function clientsOf(options: EditOptions): Promise<HarnessId[] | undefined> {
  if (options.client === undefined) return undefined;
  const { parseClients } = await import('../connect/harnesses.ts');
  return parseClients(options.client);
}

export function registerConnect(hub: Command): void {
  const clientHelp = 'only these harnesses, comma-separated: claude-code,codex,cursor,claude-desktop';
  hub
    .command('connect')
    .description(
      'Add the one "capabilities" MCP entry to each harness found (Claude Code, Codex, Cursor, Claude Desktop)',
    )
    .option('--client <names>', clientHelp)
    .option('--yes', 'replace a different "capabilities" entry without asking')
    .option(
      '--profile <name>',
      'the profile the entry serves (see `capabilities hub profiles list`)',
      'default',
    )
    .option(
      '--replace',
      'also turn off (remove) the direct entries of servers the hub already has as sources, so the agent sees each tool once, through the hub; `hub disconnect` puts them back',
    )
    .option(
      '--checkout',
      "from a checkout: write entries that run this checkout's bin/capabilities, for developing capabilities itself (they break when the checkout moves)",
    )
    .action(async (options: EditOptions, command: Command) => {
      const out = outputOf(command);
      const clients = await clientsOf(options);
      const [{ homePaths }, { stdioEntry }, { launcher }, { checkLaunch }, { connectHarnesses }, review] =
        await Promise.all([
          import('../home.ts'),
          import('../setup-snippets.ts'),
          import('../package-files.ts'),
          import('../connect/launch-check.ts'),
          import('../connect/connect.ts'),
          import('./review-prompt.ts'),
        ]);
      const launch = checkLaunch(launcher(), { checkout: options.checkout === true });
      // An entry for a hub that does not exist would start a process that fails every session.
      const { readHubFile } = await import('../home.ts');
      readHubFile(homePaths().hubFile);
      const profile = await profileToServe(out, options.profile);
      const replace = options.replace === true ? await hubSources(out) : undefined;
      const interaction = { yes: options.yes === true, input: out.options.input };
      const stdio = stdioEntry(launch, hubHomeToPass(), profile);
      const report = await connectHarnesses({
        place: place(),
        clients,
        hubDir: homePaths().hub,
        now: new Date(),
        stdio,
        replace,
        decideReplace: async (h, diff) =>
          interaction.yes ||
          (review.canPrompt(interaction) &&
            (await review.confirmOrYes(
              interaction,
              `${h.title} already has a "capabilities" entry that differs (${diff}). Replace it?`,
              'pass --yes to replace it',
            ))),
      });
      const { printedEntries } = await import('../connect/printed-harnesses.ts');
      const printed = clients === undefined ? printedEntries(place(), stdio) : [];
      const { connectSkills } = await import('./connect-skills.ts');
      const skills = await connectSkills(out, report.outcomes, place());
      await printReport(out, 'Connect:', { ...report, ...(printed.length ? { printed } : {}), skills });
    });

  hub
    .command('disconnect')
    .description(
      'Remove the "capabilities" entry from each harness that has one, and put back the entries `connect --replace` turned off',
    )
    .option('--client <names>', clientHelp)
    .action(async (options: EditOptions, command: Command) => {
      const out = outputOf(command);
      const clients = await clientsOf(options);
      const [{ homePaths }, { disconnectHarnesses }] = await Promise.all([
        import('../home.ts'),
        import('../connect/connect.ts'),
      ]);
      const report = disconnectHarnesses({
        place: place(),
        clients,
        hubDir: homePaths().hub,
        now: new Date(),
      });
      const { disconnectSkills } = await import('./connect-skills.ts');
      const skills = await disconnectSkills(report.outcomes, clients);
      await printReport(out, 'Disconnect:', { ...report, skills });
    });

  hub
    .command('rollback')
    .description(
      'Put every harness file of the last snapshot back, byte for byte, after saying what that undoes',
    )
    .option('--dry-run', 'say what a rollback would undo; change nothing')
    .option('--yes', 'also undo what changed in a file since the snapshot (otherwise asked, or kept)')
    .action(async (options: { dryRun?: boolean; yes?: boolean }, command: Command) => {
      const out = outputOf(command);
      const [{ homePaths }, { rollback, rollbackPlan }, review] = await Promise.all([
        import('../home.ts'),
        import('../connect/rollback.ts'),
        import('./review-prompt.ts'),
      ]);
      const hub = homePaths().hub;
      const plan = rollbackPlan(hub);
      const lines = [`Rollback to ${plan.snapshot} (taken by ${plan.takenBy}):`];
      for (const file of plan.files)
        lines.push(`  ${file.harness}: ${undoes(file, plan.takenBy)}  ${file.path}`);
      const changed = plan.files.filter((file) => file.since !== undefined);
      if (options.dryRun) {
        out.result({ dryRun: true, ...plan }, `${lines.join('\n')}\nA dry run: nothing was changed.`);
        return;
      }
      let undoLater = options.yes === true;
      if (changed.length > 0 && !undoLater) {
        out.note(lines.join('\n'));
        const interaction = { yes: false, input: out.options.input };
        undoLater =
          review.canPrompt(interaction) &&
          (await review.confirmOrYes(
            interaction,
            `${changed.map((file) => file.harness).join(', ')} changed since; undo those changes too?`,
            'pass --yes to undo them too',
          ));
      }
      const report = rollback(hub, undoLater, plan.files);
      const done = [`Rollback to ${report.snapshot} (taken by ${report.takenBy}):`];
      for (const file of report.files) {
        done.push(`  ${file.harness}: ${file.status}  ${file.path}`);
        if (file.message) done.push(`    ${file.message}`);
      }
      if (report.files.some((file) => file.status === 'kept')) {
        done.push('Kept the files that changed; `hub rollback --yes` undoes those changes too.');
      }
      out.result(report, done.join('\n'));
      if (report.files.some((file) => file.status === 'failed' || file.status === 'kept')) {
        process.exitCode = 1;
      }
    });
}

/** What rolling one file back undoes, in words. */
function undoes(file: RollbackFile, takenBy: string): string {
  if (file.action === 'unchanged') return 'unchanged (it already holds what the snapshot kept)';
  const own = file.action === 'remove' ? `removes it (${takenBy} created it)` : `undoes ${takenBy}'s edit`;
  if (file.since === undefined) return own;
  if (file.since === 'unknown')
    return `${own}, and whatever changed in it since (this snapshot cannot tell what)`;
  return `${own}, and changes made since (${file.since.removed} lines gone, ${file.since.added} lines added)`;
}
