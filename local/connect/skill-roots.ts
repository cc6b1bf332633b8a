/**
 * Where each harness `hub connect` writes to reads skills from disk, and the fewest of those
 * folders that give every connected harness the hub's skills once (a harness reading two of the
 * chosen folders would list each skill twice).
 *
 * - Claude Code: `~/.claude/skills/<name>/` (`$CLAUDE_CONFIG_DIR/skills` when that is set). It
 *   does not read `~/.agents/skills`.
 * - Codex: `~/.agents/skills/<name>/` (developers.openai.com/codex/skills, user scope); the legacy
 *   `$CODEX_HOME/skills` is read too but not written.
 * - Cursor: `~/.cursor/skills/`, and also `~/.agents/skills/` and `~/.claude/skills/`
 *   (cursor.com/docs/context/skills): so it gets the skills from Claude Code's or Codex's folder
 *   when either is connected too, else from its own.
 * - Claude Desktop keeps skills in the person's account: none on disk.
 */
import { join } from 'node:path';
import { type HarnessId, type HarnessPlace, harness } from './harnesses.ts';

/** A folder the hub installs skills into, and the connected harnesses that read them from it. */
export interface SkillRoot {
  path: string;
  harnesses: HarnessId[];
}

/** The skill folders `id` reads, its own first; none when it reads no skills from disk. */
export function skillFoldersOf(id: HarnessId, place: HarnessPlace): string[] {
  const claude = join(harness('claude-code', place).folder, 'skills');
  const agents = join(place.home, '.agents', 'skills');
  switch (id) {
    case 'claude-code':
      return [claude];
    case 'codex':
      return [agents];
    case 'cursor':
      return [join(place.home, '.cursor', 'skills'), agents, claude];
    case 'claude-desktop':
      return [];
  }
}

/**
 * The folders to install into for `connected` (in HARNESS_IDS order): each harness's own folder,
 * unless it already reads one chosen for another harness.
 */
export function skillRootsFor(connected: readonly HarnessId[], place: HarnessPlace): SkillRoot[] {
  const roots: SkillRoot[] = [];
  const ordered = [...connected].sort((a, b) => rank(a) - rank(b));
  for (const id of ordered) {
    const folders = skillFoldersOf(id, place);
    const shared = roots.find((root) => folders.includes(root.path));
    if (shared) shared.harnesses.push(id);
    else if (folders[0] !== undefined) roots.push({ path: folders[0], harnesses: [id] });
  }
  return roots;
}

/** Harnesses with a folder only they read come first, so a harness reading several shares theirs. */
const rank = (id: HarnessId): number => (id === 'cursor' ? 1 : 0);
