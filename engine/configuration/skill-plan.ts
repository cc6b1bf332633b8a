/**
 * The skills part of a push's plan (plan.ts): each pushed skill added, changed (which files, the
 * description, where it came from) or kept, and each of this hub's skills the push does not carry
 * removed. A skill is compared by its digest (over every file's path and SHA-256), its
 * description and its source, never by when it was added.
 */
import type { HubConfiguration, PlannedSkill } from '../contracts/configuration.ts';
import type { Skill } from '../contracts/skills.ts';

export function plannedSkills(own: HubConfiguration, incoming: HubConfiguration): PlannedSkill[] {
  const mine = new Map(own.skills.map((skill) => [skill.name, skill]));
  const pushed = new Set(incoming.skills.map((skill) => skill.name));
  const planned: PlannedSkill[] = [];
  for (const skill of incoming.skills) {
    const current = mine.get(skill.name);
    if (!current) planned.push(shell(skill, 'add'));
    else {
      const differs = differences(current, skill);
      planned.push(
        differs.length > 0
          ? { ...shell(skill, 'change'), differs: differs.join('; ') }
          : shell(skill, 'keep'),
      );
    }
  }
  for (const skill of own.skills) if (!pushed.has(skill.name)) planned.push(shell(skill, 'remove'));
  return planned.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function shell(skill: Skill, change: PlannedSkill['change']): PlannedSkill {
  return {
    name: skill.name,
    change,
    description: skill.description,
    files: skill.files.length,
    bytes: skill.files.reduce((sum, file) => sum + file.bytes, 0),
  };
}

/** What differs between two records of one skill, in words. */
function differences(current: Skill, next: Skill): string[] {
  const differs: string[] = [];
  if (current.digest !== next.digest) {
    const before = new Map(current.files.map((file) => [file.path, file.sha256]));
    const after = new Set(next.files.map((file) => file.path));
    const changed = [
      ...next.files.filter((file) => before.get(file.path) !== file.sha256).map((file) => file.path),
      ...current.files.filter((file) => !after.has(file.path)).map((file) => `${file.path} (removed)`),
    ];
    differs.push(`files ${changed.join(', ')}`);
  }
  if (current.description !== next.description) differs.push('description');
  if (current.source !== next.source) differs.push(`from ${next.source} (was ${current.source})`);
  return differs;
}
