/**
 * Importing the skills the harnesses read (skills.ts finds them, one per real path): each skill
 * folder is read as `hub skills add` reads one (local/skills/skill-folder.ts) and judged by the
 * engine (engine/skills/). New skills are added once the person consents (one question for all,
 * listing each); the rest are skipped with the reason: already in the hub, changed since it was
 * added (review it with `hub skills add`), a name another folder holds, a folder that is not a
 * valid skill, a copy `hub connect` installed (the hub's own), or pi's single `.md` skills (not a
 * folder). Harness folders are only read.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isHubError } from '../../engine/errors.ts';
import type { SkillPlan, Skills } from '../../engine/skills/skills.ts';
import { SKILL_MARKER } from '../connect/skill-install.ts';
import { readSkillFolder } from '../skills/skill-folder.ts';

export interface SkillImportOutcome {
  /** The skills added, by name, with the folder each came from. */
  imported: { name: string; from: string }[];
  /** The folders not added, and why. */
  skipped: { from: string; reason: string }[];
  /** The person said no: nothing was added. */
  cancelled?: boolean;
}

export interface SkillImportRequest {
  skills: Skills;
  /** The real paths of the skills found, each once. */
  paths: readonly string[];
  /** One consent for every new skill (name and folder); false adds none. */
  consent(skills: readonly { name: string; from: string }[]): Promise<boolean>;
}

type Planned = { from: string; plan: SkillPlan };

function skipReason(plan: SkillPlan, from: string): string | undefined {
  switch (plan.kind) {
    case 'new':
      return undefined;
    case 'unchanged':
      return `already in the hub as "${plan.skill.name}"`;
    case 'changed':
      return `"${plan.skill.name}" changed since it was added; review the change with \`capabilities hub skills add ${from}\``;
    case 'collision':
      return `a skill named "${plan.skill.name}" is already in the hub, from ${plan.previous.source}`;
  }
}

export async function importSkills(request: SkillImportRequest): Promise<SkillImportOutcome> {
  const outcome: SkillImportOutcome = { imported: [], skipped: [] };
  const planned: Planned[] = [];
  for (const from of request.paths) {
    if (!statSync(from, { throwIfNoEntry: false })?.isDirectory()) {
      outcome.skipped.push({ from, reason: 'a single Markdown file, not a skill folder with a SKILL.md' });
      continue;
    }
    if (existsSync(join(from, SKILL_MARKER))) {
      outcome.skipped.push({ from, reason: "the hub's own copy (`hub connect` installed it)" });
      continue;
    }
    try {
      const plan = await request.skills.plan(await readSkillFolder(from));
      const reason = skipReason(plan, from);
      if (reason !== undefined) outcome.skipped.push({ from, reason });
      // Two harness folders holding skills of one name: the first is imported, the others named.
      else if (planned.some((p) => p.plan.skill.name === plan.skill.name)) {
        outcome.skipped.push({
          from,
          reason: `another folder found holds a skill named "${plan.skill.name}" too`,
        });
      } else planned.push({ from, plan });
    } catch (error) {
      const reason = isHubError(error) || error instanceof Error ? error.message : String(error);
      outcome.skipped.push({ from, reason });
    }
  }
  if (planned.length === 0) return outcome;
  const listed = planned.map(({ from, plan }) => ({ name: plan.skill.name, from }));
  if (!(await request.consent(listed))) return { ...outcome, cancelled: true };
  for (const { from, plan } of planned) {
    try {
      request.skills.apply(plan);
      outcome.imported.push({ name: plan.skill.name, from });
    } catch (error) {
      const reason = isHubError(error) || error instanceof Error ? error.message : String(error);
      outcome.skipped.push({ from, reason });
    }
  }
  return outcome;
}
