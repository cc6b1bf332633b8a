/**
 * The profiles and skills half of applying a push (push.ts): each skill the plan adds or changes
 * made into its record again from the files the apply carries, and compared with the pushed record
 * the plan (and its hash) was made from; then, inside the apply's transaction, the hub's skills and
 * profiles made the pushed ones (added, replaced, removed), keeping when each was first made.
 *
 * Invariants: a skill is stored only from bytes that make exactly its pushed record (name,
 * description, text, digest over every file); files for a skill the push has no record of, or no
 * files for one the plan adds or changes, refuse the whole apply.
 */
import type { ApplyRequest, HubConfiguration, Plan } from '../contracts/configuration.ts';
import type { Skill, SkillFileData } from '../contracts/skills.ts';
import { HubError } from '../errors.ts';
import type { HubStore } from '../ports.ts';
import { skillFromBundle } from '../skills/skill-bundle.ts';

/** A skill an apply stores, with the files that made its record. */
export interface SkillWrite {
  skill: Skill;
  contents: SkillFileData[];
}

type Carried = { configuration: HubConfiguration; skillFiles?: ApplyRequest['skillFiles'] };

/**
 * The files of each skill the plan adds or changes, made into its record again and compared with
 * the pushed one: bytes that do not make the record the plan (and its hash) was made from are
 * refused, and so is a skill the apply sends no files for.
 */
export async function verifiedSkills(
  parsed: Carried,
  plan: Plan,
  now: number,
): Promise<Map<string, SkillWrite>> {
  const carried = parsed.skillFiles ?? {};
  const pushed = new Map(parsed.configuration.skills.map((skill) => [skill.name, skill]));
  const verified = new Map<string, SkillWrite>();
  for (const name of Object.keys(carried)) {
    if (!pushed.has(name)) refuseSkill(name, 'the push carries files for it but no record');
  }
  for (const entry of plan.skills) {
    if (entry.change !== 'add' && entry.change !== 'change') continue;
    const record = pushed.get(entry.name);
    const files = carried[entry.name];
    if (!record || !files) {
      refuseSkill(entry.name, 'the plan adds or changes it, and the apply carries none of its files');
    }
    const contents = files.map((file) => ({ path: file.path, data: fromBase64(file.base64, entry.name) }));
    const made = await skillFromBundle({ source: record.source, files: contents }, now);
    if (
      made.name !== record.name ||
      made.digest !== record.digest ||
      made.description !== record.description ||
      made.text !== record.text
    ) {
      refuseSkill(entry.name, 'its files do not make the record the plan was made from');
    }
    verified.set(record.name, { skill: { ...record, ...made }, contents });
  }
  return verified;
}

/** Makes the hub's skills and profiles the pushed ones, inside the apply's transaction. */
export function writeSkillsAndProfiles(
  store: HubStore,
  own: HubConfiguration,
  incoming: HubConfiguration,
  plan: Plan,
  skills: ReadonlyMap<string, SkillWrite>,
  now: number,
): void {
  const ownSkills = new Map(own.skills.map((skill) => [skill.name, skill]));
  for (const skill of plan.skills) {
    if (skill.change === 'remove') store.removeSkill(skill.name);
    const write = skills.get(skill.name);
    if (!write) continue;
    const addedAt = ownSkills.get(skill.name)?.addedAt ?? now;
    const record = { ...write.skill, addedAt, updatedAt: now };
    if (skill.change === 'add') store.addSkill(record, write.contents);
    else store.replaceSkill(record, write.contents);
  }
  const ownProfiles = new Map(own.profiles.map((profile) => [profile.name, profile]));
  const pushedProfiles = new Map(incoming.profiles.map((profile) => [profile.name, profile]));
  for (const profile of plan.profiles) {
    if (profile.change === 'keep') continue;
    if (profile.change === 'remove') {
      store.removeProfile(profile.name);
      continue;
    }
    const pushed = pushedProfiles.get(profile.name);
    if (!pushed) continue;
    const createdAt = ownProfiles.get(profile.name)?.createdAt ?? now;
    store.putProfile({ ...pushed, createdAt, updatedAt: now });
  }
}

function refuseSkill(name: string, why: string): never {
  throw new HubError(
    'invalid_input',
    `the push's skill ${JSON.stringify(name)} does not hold together: ${why}; nothing was applied. Push again.`,
  );
}

/** A file's bytes from the base64 an apply carries them in. */
function fromBase64(base64: string, skill: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    refuseSkill(skill, 'a file of it is not base64');
  }
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
