/**
 * A skill folder's files, as the host read them, made into the Skill record the hub stores: its
 * SKILL.md parsed (skill-file.ts), every file's size and SHA-256, and one digest over them all.
 * Runtime-neutral: the host reads the folder (local/skills/skill-folder.ts), this file judges it.
 *
 * Invariants: a skill has a SKILL.md at its top, is at most MAX_SKILL_BYTES in all and
 * MAX_SKILL_FILES files; paths are relative, `/`-separated, without `.` or `..` parts; the digest
 * depends on the paths and contents alone (not on the order the host listed them).
 */
import { canonicalJson } from '../canonical-json.ts';
import type { Skill, SkillFile, SkillFileData } from '../contracts/skills.ts';
import { sha256Hex } from '../digest.ts';
import { HubError } from '../errors.ts';
import { hex } from '../hex.ts';
import { parseSkillFile } from './skill-file.ts';

/** The most a skill's files may weigh together. */
export const MAX_SKILL_BYTES = 1024 * 1024;
/** The most files a skill may hold, SKILL.md included. */
export const MAX_SKILL_FILES = 256;
export const SKILL_FILE = 'SKILL.md';

export type { SkillFileData };

/** What a skill folder holds, before the hub judged it. */
export interface SkillBundle {
  /** Where it was read from (an absolute folder path, or a pinned git URL), for the record and for messages. */
  source: string;
  files: readonly SkillFileData[];
}

/** The stored record for a bundle, or HubError('invalid_input') saying what to fix. */
export async function skillFromBundle(bundle: SkillBundle, now: number): Promise<Skill> {
  const { source, files } = bundle;
  if (files.length > MAX_SKILL_FILES) {
    throw new HubError(
      'limit',
      `${source} holds ${files.length} files; a skill holds at most ${MAX_SKILL_FILES}. Move what the skill does not need out of the folder`,
    );
  }
  let total = 0;
  for (const file of files) {
    checkPath(file.path, source);
    total += file.data.byteLength;
  }
  if (total > MAX_SKILL_BYTES) {
    throw new HubError(
      'limit',
      `${source} weighs ${total} bytes; a skill weighs at most ${MAX_SKILL_BYTES} (1 MiB). Move large files out of the folder`,
    );
  }
  const skillFile = files.find((file) => file.path === SKILL_FILE);
  if (!skillFile) {
    throw new HubError(
      'invalid_input',
      `${source} has no ${SKILL_FILE} at its top: a skill is a folder with a ${SKILL_FILE}`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(skillFile.data);
  } catch {
    throw new HubError('invalid_input', `${source}/${SKILL_FILE} is not UTF-8 text`);
  }
  const { name, description } = parseSkillFile(text, `${source}/${SKILL_FILE}`);
  const manifest: SkillFile[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (manifest.some((seen) => seen.path === file.path)) {
      throw new HubError('invalid_input', `${source}: ${file.path} is listed twice`);
    }
    manifest.push({ path: file.path, bytes: file.data.byteLength, sha256: await bytesSha256(file.data) });
  }
  const digest = await sha256Hex(canonicalJson(manifest.map(({ path, sha256 }) => ({ path, sha256 }))));
  return { name, description, text, files: manifest, source, digest, addedAt: now, updatedAt: now };
}

async function bytesSha256(data: Uint8Array): Promise<string> {
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', copy)));
}

/**
 * The file a harness's copy of a skill carries to say the hub installed it
 * (local/connect/skill-install.ts): a skill's own file of that name could pass for it.
 */
export const INSTALL_MARKER = '.capabilities-skill.json';

function checkPath(path: string, source: string): void {
  if (path === INSTALL_MARKER) {
    throw new HubError(
      'invalid_input',
      `${source}: ${INSTALL_MARKER} is the name of the hub's own mark on the copies it installs; rename or remove that file`,
    );
  }
  const parts = path.split('/');
  if (
    path === '' ||
    path.startsWith('/') ||
    path.includes('\\') ||
    parts.some((p) => p === '' || p === '.' || p === '..') ||
    // Control, bidi and invisible format characters could hide or fake a line where the path is shown.
    /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(path)
  ) {
    throw new HubError(
      'invalid_input',
      `${source}: the file path ${JSON.stringify(path)} is not a plain relative path (no control or invisible characters); rename the file`,
    );
  }
}
