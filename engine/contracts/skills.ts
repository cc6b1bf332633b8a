/**
 * A skill the hub holds (spec: Concepts, "Package"; FAQ "Does it run skills?"): a folder with a
 * SKILL.md, whose YAML front matter names it and says what it is for, then its instructions, and
 * optional files beside it. The hub keeps SKILL.md's text, a manifest of every file (path,
 * size, SHA-256) and every file's bytes (`SkillFileData`, so `hub connect` can install it into a
 * harness's skills folder); the files are data it serves, never code it runs.
 *
 * The hub's records, as zod 4 schemas: one definition per record.
 */
import { z } from 'zod';
import { Timestamp } from './names.ts';

/** Agent Skills' rule for a name: lowercase letters, digits and single hyphens, at most 64. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;

export const SkillName = z.string().max(SKILL_NAME_MAX).regex(SKILL_NAME);

const Sha256 = z.string().regex(/^[a-f0-9]{64}$/);

export const SkillFile = z.object({
  /** Relative to the skill's folder, with `/` between parts (`SKILL.md`, `scripts/run.py`). */
  path: z.string().min(1).max(1024),
  bytes: z.number().int().nonnegative(),
  sha256: Sha256,
});
export type SkillFile = z.infer<typeof SkillFile>;

export const Skill = z.object({
  name: SkillName,
  description: z.string().min(1).max(SKILL_DESCRIPTION_MAX),
  /** The whole SKILL.md, front matter included. */
  text: z.string(),
  /** Every file of the folder, SKILL.md included, sorted by path. */
  files: z.array(SkillFile).min(1),
  /**
   * Where it was added from: an absolute folder path, or a git URL pinned to a commit,
   * `<url>#<40-hex commit>`, with `:<path>` after when the skill is a folder inside the repository.
   */
  source: z.string().min(1),
  /** SHA-256 over the manifest of files (engine/skills/skill-bundle.ts): changes when any file does. */
  digest: Sha256,
  addedAt: Timestamp,
  updatedAt: Timestamp,
});
export type Skill = z.infer<typeof Skill>;

/** One file of a skill with its bytes: as the host read it, and as the store keeps it. */
export interface SkillFileData {
  /** Relative to the skill's folder, `/`-separated, as in the manifest. */
  path: string;
  data: Uint8Array;
}

const PINNED = /#[0-9a-f]{40}(?=:|$)/;

/**
 * What says two additions are the same skill from the same place: the source without its
 * commit, so a new commit of the same repository (and path) is a change to review, not another
 * skill. A folder path is its own origin.
 */
export function skillOrigin(source: string): string {
  return source.startsWith('/') ? source : source.replace(PINNED, '');
}
