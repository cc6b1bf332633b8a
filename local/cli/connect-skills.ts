/**
 * The skills half of `hub connect`, `hub disconnect` and `hub skills add | remove`: which harnesses
 * a connect or disconnect reached, the hub's skills with their files (read from the hub when it
 * exists; connect never creates one), handed to local/connect/skill-install.ts, and the lines
 * that say what happened, folder by folder.
 */
import { existsSync } from 'node:fs';
import type { Engine } from '../../engine/engine.ts';
import type { HarnessOutcome } from '../connect/connect.ts';
import { HARNESS_IDS, type HarnessId, type HarnessPlace } from '../connect/harnesses.ts';
import type { HubSkill, SkillOutcome } from '../connect/skill-install.ts';
import type { Output } from './output.ts';

/** The hub's skills with their files. */
export function hubSkillsOf(engine: Engine): HubSkill[] {
  return engine.skills.list().map((skill) => ({ skill, contents: engine.skills.contents(skill.name) }));
}

/** After connect: the hub's skills into the skill folders of each harness now connected. */
export async function connectSkills(
  out: Output,
  outcomes: readonly HarnessOutcome[],
  place: HarnessPlace,
): Promise<SkillOutcome[]> {
  const connected = outcomes
    .filter((o) => o.status === 'connected' || o.status === 'unchanged')
    .map((o) => o.harness);
  const { homePaths } = await import('../home.ts');
  const paths = homePaths();
  if (connected.length === 0 || !existsSync(paths.hubFile)) return [];
  const [{ withHub }, { skillRootsFor }, { installSkills }] = await Promise.all([
    import('../open-hub.ts'),
    import('../connect/skill-roots.ts'),
    import('../connect/skill-install.ts'),
  ]);
  try {
    const skills = await withHub(out, async (engine) => hubSkillsOf(engine));
    return installSkills(paths.hub, skillRootsFor(connected, place), skills);
  } catch (error) {
    return [notDone(paths.hub, connected, error)];
  }
}

/** Skills could not be done at all (the hub did not open, the record did not read): one outcome saying why. */
function notDone(where: string, harnesses: HarnessId[], error: unknown): SkillOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return { root: where, harnesses, name: 'every skill', status: 'failed', message };
}

/** After disconnect: the copies the hub installed for the harnesses disconnected (or named). */
export async function disconnectSkills(
  outcomes: readonly HarnessOutcome[],
  clients: readonly HarnessId[] | undefined,
): Promise<SkillOutcome[]> {
  const failed = new Set(outcomes.filter((o) => o.status === 'failed').map((o) => o.harness));
  const gone = (clients ?? HARNESS_IDS).filter((id) => !failed.has(id));
  const [{ homePaths }, { uninstallSkills }] = await Promise.all([
    import('../home.ts'),
    import('../connect/skill-install.ts'),
  ]);
  try {
    return uninstallSkills(homePaths().hub, gone);
  } catch (error) {
    return [notDone(homePaths().hub, gone, error)];
  }
}

/** After `hub skills add | remove`: the harnesses' copies in step with the hub, when any were installed. */
export async function syncSkills(engine: Engine): Promise<SkillOutcome[]> {
  const [{ homePaths }, install] = await Promise.all([
    import('../home.ts'),
    import('../connect/skill-install.ts'),
  ]);
  const hubDir = homePaths().hub;
  if (!install.hasInstalledSkills(hubDir)) return [];
  return install.syncInstalledSkills(hubDir, hubSkillsOf(engine));
}

const WORDS: Record<SkillOutcome['status'], string> = {
  installed: 'installed',
  updated: 'updated',
  unchanged: 'unchanged',
  removed: 'removed',
  kept: 'kept',
  failed: 'FAILED',
};

/** One line per skills folder (with its harnesses) and what happened to each skill in it. */
export function skillLines(outcomes: readonly SkillOutcome[]): string[] {
  const lines: string[] = [];
  const roots = [...new Set(outcomes.map((o) => o.root))];
  for (const root of roots) {
    const here = outcomes.filter((o) => o.root === root);
    lines.push(`  Skills in ${root} (${here[0]?.harnesses.join(', ') ?? ''}):`);
    for (const o of here) {
      lines.push(`    ${o.name}: ${WORDS[o.status]}`);
      if (o.message) lines.push(`      ${o.message}`);
    }
  }
  return lines;
}
