/**
 * Reads a skill folder from disk for the engine to judge (engine/skills/skill-bundle.ts): every
 * file under it, by relative path, with its bytes. Nothing in it is run.
 *
 * Invariants: a link that leads out of the folder (or to a folder) is refused, naming it; a link
 * to a file inside is read as that file; `.git` is left out (a clone's history is not the skill);
 * reading stops as soon as the folder is past the engine's caps (size from `lstat`/`stat` before
 * any read), so a huge folder is refused without being read.
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HubError } from '../../engine/errors.ts';
import {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  type SkillBundle,
  type SkillFileData,
} from '../../engine/skills/skill-bundle.ts';

const LEFT_OUT = new Set(['.git']);

/** The files of the skill folder at `folder` (relative to the working directory or absolute). */
export async function readSkillFolder(folder: string): Promise<SkillBundle> {
  const given = resolve(folder);
  let root: string;
  try {
    root = await realpath(given);
    if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new HubError(
      'invalid_input',
      `${given} is not a folder: pass the folder that holds the skill's SKILL.md`,
    );
  }
  const files: SkillFileData[] = [];
  let total = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (LEFT_OUT.has(entry.name)) continue;
      const path = join(dir, entry.name);
      const shown = relative(root, path).split(sep).join('/');
      let target = path;
      let info = await lstat(path);
      if (info.isSymbolicLink()) {
        target = await realpath(path).catch(() => '');
        // Inside the folder, but never into a repository's own .git (a checkout's FETCH_HEAD…).
        const inside =
          target !== '' && isInside(root, target) && !relative(root, target).split(sep).includes('.git');
        if (!inside) {
          throw new HubError(
            'invalid_input',
            `${given}: ${shown} is a link that leads out of the skill folder; replace it with a copy of what it points to, or remove it`,
          );
        }
        info = await stat(target);
        if (info.isDirectory()) {
          throw new HubError(
            'invalid_input',
            `${given}: ${shown} is a link to a folder; skills hold plain folders and files`,
          );
        }
      }
      if (info.isDirectory()) {
        await walk(path);
        continue;
      }
      if (!info.isFile()) {
        throw new HubError(
          'invalid_input',
          `${given}: ${shown} is not a plain file; remove it from the skill folder`,
        );
      }
      total += info.size;
      if (files.length + 1 > MAX_SKILL_FILES || total > MAX_SKILL_BYTES) {
        throw new HubError(
          'limit',
          `${given} is larger than a skill may be (at most ${MAX_SKILL_FILES} files and ${MAX_SKILL_BYTES} bytes, 1 MiB, in all); move what the skill does not need out of the folder`,
        );
      }
      files.push({ path: shown, data: new Uint8Array(await readFile(target)) });
    }
  };
  await walk(root);
  return { source: root, files };
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel.split(sep)[0] !== '..' && !isAbsolute(rel);
}
