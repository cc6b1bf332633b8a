/** Skill folders written to a temporary directory for the skills tests: a SKILL.md and files beside it. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SkillFolders {
  root: string;
  /** Writes a folder `name` under the root with these files (path → text) and returns its path. */
  write(name: string, files: Record<string, string | Buffer>): string;
  remove(): void;
}

export function skillFolders(): SkillFolders {
  const root = mkdtempSync(join(tmpdir(), 'capabilities-skills-'));
  return {
    root,
    write(name, files) {
      const folder = join(root, name);
      mkdirSync(folder, { recursive: true });
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), text);
      }
      return folder;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A SKILL.md with this front matter and body. */
export const skillMd = (name: string, description: string, body = '# Steps\n\n1. Do the thing.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
