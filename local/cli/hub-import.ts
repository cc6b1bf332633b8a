/**
 * `capabilities hub import [--from <harness>…] [--yes] [--skip-failing] [--dry-run]` and the
 * import half of `hub init --import`: what the importer finds in each harness's configuration
 * (files read, servers, errors with their line, skills), the plan (one proposed namespace per
 * server, duplicates merged with where each came from, the credentials each needs, by kind and
 * name only), then, unless --dry-run, one consent for what will run and be kept, one review of
 * every new tool, and the sources added (local/import/apply.ts); then one consent for the new
 * skills found and those added (local/import/apply-skills.ts). Harness files are only read.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { ImportConsent, ImportOutcome } from '../import/apply.ts';
import type { SkillImportOutcome } from '../import/apply-skills.ts';
import { HARNESSES, type HarnessId, unreadable } from '../import/found.ts';
import type { ExistingSource, ImportItem, ImportPlan } from '../import/plan.ts';
import type { HarnessScan } from '../import/read-harnesses.ts';
import { hubAction, type OnHub } from './hub-action.ts';
import type { Output } from './output.ts';
export interface ImportOptions {
  dryRun?: boolean;
  from?: string[];
  yes?: boolean;
  skipFailing?: boolean;
}

function harnessesOf(names: readonly string[] | undefined): HarnessId[] {
  if (!names || names.length === 0) return [...HARNESSES];
  const wanted = names.flatMap((name) => name.split(',')).map((name) => name.trim());
  const unknown = wanted.filter((name) => !(HARNESSES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new HubError(
      'invalid_input',
      `--from takes ${HARNESSES.join(', ')}; got "${unknown.join('", "')}"`,
    );
  }
  return HARNESSES.filter((id) => wanted.includes(id));
}

function target(item: ImportItem): string {
  const t = item.transport;
  return t.kind === 'stdio' ? `stdio  ${[t.command, ...t.args].join(' ')}` : `${t.kind}  ${t.url}`;
}

function itemLines(item: ImportItem): string[] {
  const from = item.origins.map((o) => `${o.harness}:${o.name}${o.scope === 'user' ? '' : ` (${o.scope})`}`);
  const lines = [
    `  ${inertLine(item.namespace)}  ${inertLine(target(item))}${item.disabled ? '  (disabled)' : ''}`,
  ];
  lines.push(`      from ${inertLine(from.join(', '))}`);
  const needs = item.needs.map((n) =>
    n.kind === 'reference' ? `${n.name} from $${n.variable}` : `${n.name} (${n.kind}, to the secret store)`,
  );
  if (needs.length > 0) lines.push(`      credentials: ${inertLine(needs.join(', '))}`);
  if (item.origins.length > 1 && item.needs.length > 0) {
    lines.push('      (merged: the credentials of the first harness listed, with what the others add)');
  }
  return lines;
}

/** What was found, harness by harness, and the plan: printable, never a secret value. */
interface Found {
  scan: HarnessScan;
  plan: ImportPlan;
}

async function find(from: readonly HarnessId[], existing: readonly ExistingSource[]): Promise<Found> {
  const [{ nodeHarnessFiles }, { readHarnesses }, { planImport }] = await Promise.all([
    import('../import/node-files.ts'),
    import('../import/read-harnesses.ts'),
    import('../import/plan.ts'),
  ]);
  const scan = readHarnesses(nodeHarnessFiles(), from);
  const plan = planImport(
    scan.harnesses.flatMap((h) => h.servers),
    { existing },
  );
  return { scan, plan };
}

function foundJson({ scan, plan }: Found) {
  return {
    harnesses: scan.harnesses.map((h) => ({
      harness: h.harness,
      filesRead: h.filesRead,
      servers: h.servers.map((s) => s.name),
      errors: h.errors,
      skills: h.skills,
    })),
    distinctSkills: scan.distinctSkills,
    plan: plan.toJSON(),
  };
}

function foundLines({ scan, plan }: Found, heading: string): string[] {
  const lines: string[] = [];
  for (const h of scan.harnesses) {
    if (h.filesRead.length === 0 && h.skills === 0) continue;
    lines.push(`${h.harness}: ${count(h.servers.length, 'server')}, ${count(h.skills, 'skill')}`);
    for (const file of h.filesRead) lines.push(`  read ${inertLine(file)}`);
    for (const e of h.errors)
      lines.push(`  error: ${inertLine(`${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`)}`);
  }
  if (lines.length === 0) lines.push('No harness configuration found.');
  lines.push('');
  lines.push(plan.items.length === 0 ? 'No MCP servers to import.' : heading);
  for (const item of plan.items) lines.push(...itemLines(item));
  for (const own of plan.hubEntries) {
    lines.push(
      `  skipped ${inertLine(`${own.harness}:${own.name}`)}: it runs this hub (\`hub connect\` wrote it)`,
    );
  }
  for (const had of plan.present) {
    const names = had.origins.map((o) => `${o.harness}:${o.name}`).join(', ');
    lines.push(`  already in the hub as ${inertLine(had.namespace)}: ${inertLine(names)}`);
  }
  if (scan.distinctSkills > 0) {
    lines.push(
      '',
      `${count(scan.distinctSkills, 'skill')} found; the import adds each skill folder to the hub's skills.`,
    );
  }
  return lines;
}

function consentLines(consent: ImportConsent): string[] {
  const lines = ['To import, the hub will:'];
  if (consent.commands.length > 0) {
    lines.push('  run these commands on your machine, as you, now and whenever their tools are used:');
    for (const c of consent.commands) {
      const shown = [...Object.entries(c.env).map(([k, v]) => `${k}=${v}`), ...c.command].join(' ');
      lines.push(`    ${inertLine(c.namespace)}  ${inertLine(shown)}  (in ${inertLine(c.cwd)})`);
    }
  }
  if (consent.servers.length > 0) {
    lines.push('  connect to:');
    for (const s of consent.servers) lines.push(`    ${inertLine(s.namespace)}  ${inertLine(s.url)}`);
  }
  if (consent.variables.length > 0) {
    lines.push(
      `  read from your environment: ${consent.variables.map((v) => `$${v.variable} (${v.namespace})`).join(', ')}`,
    );
  }
  if (consent.secrets.length > 0) {
    lines.push(
      `  keep in its secret store: ${consent.secrets.map((s) => `${s.name} (${s.namespace}, ${s.delivery})`).join(', ')}`,
    );
  }
  return lines.map(inertLine);
}

function outcomeLines(outcome: ImportOutcome): string[] {
  if (outcome.status === 'cancelled') return ['Cancelled; nothing was added.'];
  const lines: string[] = [];
  if (outcome.imported.length > 0) {
    lines.push(`Imported ${count(outcome.imported.length, 'source')}, each tool pinned to its contract:`);
    for (const s of outcome.imported) {
      const p = s.policies;
      lines.push(
        `  ${s.namespace}  ${count(s.tools, 'tool')} (${p.allow} allow, ${p.ask} ask, ${p.deny} deny)  from ${inertLine(s.from.join(', '))}`,
      );
      for (const note of s.notes) lines.push(`    ${inertLine(note)}`);
    }
  }
  const stored = outcome.failed.filter((f) => f.stored);
  const left = outcome.failed.filter((f) => !f.stored);
  if (stored.length > 0) {
    lines.push(
      `Added ${count(stored.length, 'source')} whose tools could not be listed; fix each, then \`capabilities hub refresh <namespace>\` (or \`capabilities hub remove <namespace>\`):`,
    );
  }
  for (const f of stored) lines.push(...failureLines(f));
  if (left.length > 0) lines.push(`Left out ${count(left.length, 'source')} that failed (--skip-failing):`);
  for (const f of left) lines.push(...failureLines(f));
  if (outcome.skipped.length > 0) lines.push('Not imported:');
  for (const s of outcome.skipped) lines.push(`  ${s.namespace}: ${inertLine(s.reason)}`);
  if (lines.length === 0) lines.push('No MCP servers to import.');
  return lines;
}

function failureLines(f: ImportOutcome['failed'][number]): string[] {
  const [first = '', ...rest] = f.error.split('\n');
  return [
    `  ${f.namespace}: ${inertLine(first)}`,
    ...rest.map((line) => `      ${inertLine(line)}`),
    ...(f.detail ? [`    ${inertLine(f.detail)}`] : []),
  ];
}

/** The dry run: reads the harnesses and, only when the hub exists, its sources; writes nothing. */
async function dryRun(out: Output, from: readonly HarnessId[]): Promise<void> {
  const { homePaths } = await import('../home.ts');
  let existing: ExistingSource[] = [];
  if (existsSync(homePaths().hubFile)) {
    const { withHub } = await import('../open-hub.ts');
    existing = await withHub(out, async ({ desk }) => desk.sources.list().map(({ source }) => source));
  }
  const found = await find(from, existing);
  // A harness file that could not be read is a failure, as it is for the import itself.
  if (found.scan.harnesses.some(unreadable)) process.exitCode = 1;
  out.result(
    { dryRun: true, ...foundJson(found) },
    foundLines(
      found,
      `Would import ${count(found.plan.items.length, 'source')} (a dry run: nothing was added):`,
    ).join('\n'),
  );
}

/** The import itself, on the open hub. */
export function importInto(out: Output, options: ImportOptions): OnHub {
  const from = harnessesOf(options.from);
  const ask = { yes: options.yes === true, input: out.options.input };
  return async ({ sources, desk, skills }) => {
    const [review, { applyImport }, { homeExposure, runsInside }, { homePaths }] = await Promise.all([
      import('./review-prompt.ts'),
      import('../import/apply.ts'),
      import('../home-exposure.ts'),
      import('../home.ts'),
    ]);
    const found = await find(
      from,
      desk.sources.list().map(({ source }) => source),
    );
    // What was found is said once: before the consent when there is something to import, else
    // as the answer itself.
    const foundText = foundLines(found, `Found ${count(found.plan.items.length, 'source')} to import:`);
    const nothing = found.plan.items.length === 0;
    if (!nothing) out.note(foundText.join('\n'));
    const paths = homePaths();
    const places = [paths.hub, paths.envFile];
    const outcome = await applyImport({
      sources,
      plan: found.plan,
      env: process.env,
      cwdFor: (item) => {
        const origin = item.origins[0];
        return origin?.project && origin.scope !== 'user' ? origin.project : homedir();
      },
      reachesHome: (command, env, cwd) => [
        ...homeExposure(command, env, places, cwd),
        ...(runsInside(cwd, places) ? [cwd] : []),
      ],
      skipFailing: options.skipFailing === true,
      consent: async (consent) => {
        out.note(consentLines(consent).join('\n'));
        const doing = [
          consent.commands.length > 0 ? `run ${count(consent.commands.length, 'command')}` : '',
          consent.servers.length > 0 ? `connect to ${count(consent.servers.length, 'server')}` : '',
          consent.secrets.length > 0 ? `keep ${count(consent.secrets.length, 'credential')}` : '',
        ].filter(Boolean);
        return review.confirmOrYes(
          ask,
          `Import: ${doing.join(', ')}?`,
          'the import runs and keeps what is listed above; pass --yes to consent to exactly that',
        );
      },
      review: (items) => review.decideReview(items, ask, out),
      progress: (line) => out.note(line),
    });
    const skillOutcome =
      outcome.status === 'cancelled'
        ? undefined
        : await (await import('../import/apply-skills.ts')).importSkills({
            skills,
            paths: [...new Set(found.scan.harnesses.flatMap((h) => h.skillPaths))].sort(),
            consent: async (listed) => {
              out.note(
                [
                  'To import skills, the hub will keep a copy of these folders (data it serves, never runs):',
                  ...listed.map((s) => `  ${inertLine(s.name)}  from ${inertLine(s.from)}`),
                ].join('\n'),
              );
              return review.confirmOrYes(
                ask,
                `Import ${count(listed.length, 'skill')}?`,
                'the import keeps the skills listed above; pass --yes to consent to exactly that',
              );
            },
          });
    const lines = nothing ? foundText : outcomeLines(outcome);
    const skillText = skillOutcome ? skillOutcomeLines(skillOutcome) : [];
    out.result(
      { ...foundJson(found), outcome, ...(skillOutcome ? { skills: skillOutcome } : {}) },
      [...lines, ...skillText].join('\n'),
    );
    // A harness file that could not be read is a failure, whatever else was imported; a skipped
    // entry of a file that was read is said, and is not.
    if (found.scan.harnesses.some(unreadable)) process.exitCode = 1;
  };
}

function skillOutcomeLines(outcome: SkillImportOutcome): string[] {
  const lines: string[] = [];
  if (outcome.cancelled) lines.push('Skills: cancelled; none was added.');
  if (outcome.imported.length > 0) {
    lines.push(`Imported ${count(outcome.imported.length, 'skill')}:`);
    for (const s of outcome.imported) lines.push(`  ${inertLine(s.name)}  from ${inertLine(s.from)}`);
  }
  if (outcome.skipped.length > 0) lines.push('Skills not imported:');
  for (const s of outcome.skipped) lines.push(`  ${inertLine(s.from)}: ${inertLine(s.reason)}`);
  return lines;
}

export function registerImport(hub: Command): void {
  hub
    .command('import')
    .description(
      'Add the MCP servers your harnesses use (Claude Code, Codex, Cursor, …) as sources, after one review',
    )
    .option('--dry-run', 'print what was found and what would be added; add nothing')
    .option('--from <harness...>', `only these harnesses: ${HARNESSES.join(', ')}`)
    .option('--yes', 'consent to every command and credential shown and accept the proposed policies')
    .option(
      '--skip-failing',
      'leave out a server that fails to start or list its tools (default: add it to fix)',
    )
    .action(
      hubAction(async (out, options: ImportOptions) => {
        const from = harnessesOf(options.from);
        if (options.dryRun) {
          await dryRun(out, from);
          return undefined;
        }
        const { homePaths } = await import('../home.ts');
        const paths = homePaths();
        if (!existsSync(paths.hubFile)) {
          throw new HubError(
            'not_found',
            `there is no hub at ${paths.hub}; create it and import in one step with \`capabilities hub init --import\``,
          );
        }
        return importInto(out, options);
      }),
    );
}

/** `1 server`, `2 servers`. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
