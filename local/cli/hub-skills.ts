/**
 * `capabilities hub skills add | list | remove`: the skills the hub holds. `add` reads a folder
 * with a SKILL.md (local/skills/skill-folder.ts), or a git repository pinned to a commit,
 * `<url>#<commit>` with `--path` for a folder inside it (local/skills/skill-git.ts), and the
 * engine judges it (engine/skills/): a new skill is stored with its files, the same one again
 * changes nothing, a changed one (a new digest from the same folder, or another commit of the same
 * repository and path) is shown file by file and replaces the stored one only when the person
 * accepts it (or passes --yes), and a name another folder holds is refused with what to do. After
 * a connect, adding, changing or removing a skill also updates the copies in the harnesses'
 * skill folders. The files are data the hub serves to agents, never code it runs.
 */
import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.ts';
import { HubError } from '../../engine/errors.ts';
import type { SkillChanges } from '../../engine/skills/skills.ts';
import type { SkillOutcome } from '../connect/skill-install.ts';
import { hubAction } from './hub-action.ts';
import type { Output } from './output.ts';

function changeLines(changes: SkillChanges): string[] {
  const lines: string[] = [];
  if (changes.source) lines.push(`  from: ${changes.source.from} → ${changes.source.to}`);
  if (changes.description) {
    lines.push(
      `  description: ${JSON.stringify(changes.description.from)} → ${JSON.stringify(changes.description.to)}`,
    );
  }
  for (const path of changes.added) lines.push(`  + ${path}`);
  for (const path of changes.removed) lines.push(`  - ${path}`);
  for (const path of changes.changed) lines.push(`  ~ ${path}`);
  const text = changes.instructions;
  if (text) {
    lines.push('  SKILL.md, what agents read:');
    for (const line of text.removed) lines.push(`    - ${line}`);
    for (const line of text.added) lines.push(`    + ${line}`);
    if (text.more > 0) lines.push(`    (${text.more} more changed lines)`);
  }
  return lines;
}

/**
 * After a skill was added, changed or removed: the copies `hub connect` installed into the
 * harnesses' skill folders, brought in step (connect-skills.ts); notes what happened.
 */
async function installedNow(out: Output, engine: Engine): Promise<SkillOutcome[]> {
  const { syncSkills, skillLines } = await import('./connect-skills.ts');
  const outcomes = await syncSkills(engine);
  const changed = outcomes.filter((o) => o.status !== 'unchanged');
  if (changed.length > 0) out.note(['In the harnesses connected:', ...skillLines(changed)].join('\n'));
  if (outcomes.some((o) => o.status === 'failed')) process.exitCode = 1;
  return outcomes;
}

/** The files of the folder or pinned git repository `given`. */
async function readBundle(given: string, path: string | undefined) {
  const git = await import('../skills/skill-git.ts');
  if (git.isGitUrl(given)) return git.readGitSkill(git.parseGitSkill(given, path));
  if (path !== undefined) {
    throw new HubError(
      'invalid_input',
      '--path is for a git URL; for a folder on disk, pass the folder that holds SKILL.md itself',
    );
  }
  const { readSkillFolder } = await import('../skills/skill-folder.ts');
  return readSkillFolder(given);
}

export function registerSkills(hub: Command): void {
  const skills = hub
    .command('skills')
    .description('Manage the skills the hub serves (folders with a SKILL.md)');

  skills
    .command('add')
    .description(
      'Add a skill from a folder with a SKILL.md, or from a git repository pinned to a commit (<url>#<commit>), or review a changed one',
    )
    .argument('<folder-or-url>', 'the folder that holds SKILL.md, or <git URL>#<40-hex commit>')
    .option('--path <folder>', 'with a git URL: the folder inside the repository that holds SKILL.md')
    .option('--yes', 'accept a changed skill without asking')
    .action(
      hubAction(async (out, given: string, options: { yes?: boolean; path?: string }) => {
        const bundle = await readBundle(given, options.path);
        return async (engine) => {
          const hubSkills = engine.skills;
          const plan = await hubSkills.plan(bundle);
          const { skill } = plan;
          const summary = { name: skill.name, files: skill.files.length, digest: skill.digest };
          switch (plan.kind) {
            case 'new': {
              hubSkills.apply(plan);
              const installed = await installedNow(out, engine);
              out.result(
                { added: true, changed: false, ...summary, installed },
                `Added skill "${skill.name}" (${skill.files.length} ${skill.files.length === 1 ? 'file' : 'files'}). Agents find it with search and read it with describe("skill:${skill.name}").`,
              );
              return;
            }
            case 'unchanged': {
              hubSkills.apply(plan);
              const installed = await installedNow(out, engine);
              out.result(
                { added: false, changed: false, ...summary, installed },
                `Skill "${skill.name}" is already in the hub, unchanged.`,
              );
              return;
            }
            case 'collision':
              throw new HubError(
                'conflict',
                `a skill named "${skill.name}" is already in the hub, added from ${plan.previous.source}; remove it first with \`capabilities hub skills remove ${skill.name}\`, or give this one another name in its SKILL.md`,
              );
            case 'changed': {
              out.note(`Skill "${skill.name}" changed since it was added:`);
              for (const line of changeLines(plan.changes)) out.note(line);
              const review = await import('./review-prompt.ts');
              const accepted = await review.confirmOrYes(
                { yes: options.yes === true, input: out.options.input },
                `Accept the changed skill "${skill.name}"?`,
                `the skill "${skill.name}" changed; review the changes above, then pass --yes to accept them`,
              );
              if (!accepted) {
                out.result(
                  { added: false, changed: true, accepted: false, ...summary },
                  'Kept the skill as it was.',
                );
                return;
              }
              hubSkills.apply(plan);
              const installed = await installedNow(out, engine);
              out.result(
                { added: false, changed: true, accepted: true, ...summary, changes: plan.changes, installed },
                `Updated skill "${skill.name}".`,
              );
              return;
            }
          }
        };
      }),
    );

  skills
    .command('list')
    .description('List the skills the hub holds')
    .action(
      hubAction((out) => async ({ skills: hubSkills }) => {
        const rows = hubSkills.list().map((skill) => ({
          name: skill.name,
          description: skill.description,
          files: skill.files.length,
          source: skill.source,
          digest: skill.digest,
        }));
        const text =
          rows.length === 0
            ? 'No skills yet. Add one with `capabilities hub skills add <folder>`.'
            : rows
                .map(
                  (r) =>
                    `${r.name}  ${r.files} ${r.files === 1 ? 'file' : 'files'}  ${r.source}\n    ${r.description}`,
                )
                .join('\n');
        out.result({ skills: rows }, text);
      }),
    );

  skills
    .command('remove')
    .description('Remove a skill from the hub (its folder on disk is left as it is)')
    .argument('<name>')
    .action(
      hubAction((out, name: string) => async (engine) => {
        engine.skills.remove(name);
        const installed = await installedNow(out, engine);
        out.result({ removed: true, name, installed }, `Removed skill "${name}".`);
      }),
    );
}
