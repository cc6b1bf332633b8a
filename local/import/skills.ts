/**
 * Counting skills: a skill is a folder holding `SKILL.md` under one of a harness's skill roots
 * (found recursively: Hermes nests them by category, Codex by `.system`). Many harnesses read
 * the same folders (`~/.agents/skills`, `~/.claude/skills`), and dotfile managers link them,
 * so each is identified by its real path and counted once (research §0).
 */
import type { HarnessFiles } from './harness-files.ts';
import { joinPath } from './harness-files.ts';

const MAX_DEPTH = 4;

function scan(files: HarnessFiles, dir: string, depth: number, out: Set<string>): void {
  const entries = files.listDir(dir);
  if (entries.some((e) => e.file && e.name === 'SKILL.md')) {
    out.add(files.realpath(dir));
    return;
  }
  if (depth >= MAX_DEPTH) return;
  for (const entry of entries) {
    if (entry.directory && entry.name !== 'node_modules' && entry.name !== '.git') {
      scan(files, joinPath(dir, entry.name), depth + 1, out);
    }
  }
}

export interface SkillRoot {
  path: string;
  /** pi also counts each `*.md` file directly in the root as a skill. */
  directMarkdown?: boolean;
}

/** The real paths of the skills under `roots`, each once, sorted. */
export function skillPaths(files: HarnessFiles, roots: readonly SkillRoot[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    for (const entry of files.listDir(root.path)) {
      const path = joinPath(root.path, entry.name);
      if (entry.directory) scan(files, path, 1, found);
      else if (root.directMarkdown && entry.file && entry.name.endsWith('.md'))
        found.add(files.realpath(path));
    }
  }
  return [...found].sort();
}
