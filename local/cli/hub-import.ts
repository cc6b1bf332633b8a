/**
 * `capabilities hub import --dry-run [--from <harness>…]`: what the importer finds in each
 * harness's configuration (files read, servers, errors with their line, skills) and the plan it
 * would apply: one proposed namespace per server, duplicates merged with where each came from,
 * and which credentials each needs, by kind and name only. It reads, never writes: not the
 * harness files, not the hub (whose namespaces it reads only when the hub already exists).
 * Applying the plan is not here yet, so the command asks for --dry-run.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import { HARNESSES, type HarnessId } from '../import/found.ts';
import type { ImportItem } from '../import/plan.ts';
import { hubAction } from './hub-action.ts';
import type { Output } from './output.ts';

interface ImportOptions {
  dryRun?: boolean;
  from?: string[];
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
  return lines;
}

async function existingNamespaces(out: Output): Promise<string[]> {
  const { homePaths } = await import('../home.ts');
  if (!existsSync(homePaths().hubFile)) return [];
  const { withHub } = await import('../open-hub.ts');
  return withHub(out, async ({ desk }) => desk.sources.list().map(({ source }) => source.namespace));
}

export function registerImport(hub: Command): void {
  hub
    .command('import')
    .description(
      'Find the MCP servers your harnesses use (Claude Code, Codex, Cursor, …) and propose them as sources',
    )
    .option('--dry-run', 'print what was found and what would be added; add nothing')
    .option('--from <harness...>', `only these harnesses: ${HARNESSES.join(', ')}`)
    .action(
      hubAction(async (out, options: ImportOptions) => {
        const from = harnessesOf(options.from);
        if (!options.dryRun) {
          throw new HubError(
            'invalid_input',
            'importing into the hub is not available yet; run `capabilities hub import --dry-run` to see what would be imported',
          );
        }
        const [{ nodeHarnessFiles }, { readHarnesses }, { planImport }] = await Promise.all([
          import('../import/node-files.ts'),
          import('../import/read-harnesses.ts'),
          import('../import/plan.ts'),
        ]);
        const scan = readHarnesses(nodeHarnessFiles(), from);
        const plan = planImport(
          scan.harnesses.flatMap((h) => h.servers),
          { existingNamespaces: await existingNamespaces(out) },
        );
        const harnesses = scan.harnesses.map((h) => ({
          harness: h.harness,
          filesRead: h.filesRead,
          servers: h.servers.map((s) => s.name),
          errors: h.errors,
          skills: h.skills,
        }));
        const lines: string[] = [];
        for (const h of harnesses) {
          if (h.filesRead.length === 0 && h.skills === 0) continue;
          lines.push(`${h.harness}: ${count(h.servers.length, 'server')}, ${count(h.skills, 'skill')}`);
          for (const file of h.filesRead) lines.push(`  read ${inertLine(file)}`);
          for (const e of h.errors)
            lines.push(`  error: ${inertLine(`${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`)}`);
        }
        if (lines.length === 0) lines.push('No harness configuration found.');
        lines.push('');
        lines.push(
          plan.items.length === 0
            ? 'Nothing to import.'
            : `Would import ${plan.items.length} sources (a dry run: nothing was added):`,
        );
        for (const item of plan.items) lines.push(...itemLines(item));
        for (const own of plan.hubEntries) {
          lines.push(
            `  skipped ${inertLine(`${own.harness}:${own.name}`)}: it runs this hub (\`hub connect\` wrote it)`,
          );
        }
        if (scan.distinctSkills > 0) {
          lines.push('', `${scan.distinctSkills} skills found; a later release imports them.`);
        }
        out.result(
          { dryRun: true, harnesses, distinctSkills: scan.distinctSkills, plan: plan.toJSON() },
          lines.join('\n'),
        );
        return undefined;
      }),
    );
}

/** `1 server`, `2 servers`. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
