/**
 * `hub rollback`: every harness file of the last snapshot back to its bytes then, with its mode;
 * a file that did not exist then is removed again. Rollback is the whole file, not the entry
 * (that is disconnect), so it first says what it would undo: for each file, the edit the command
 * that took the snapshot made, and whatever changed in the file since (Claude Code rewrites
 * `~/.claude.json` itself). A file changed since is restored only with the person's consent:
 * otherwise it is kept as it is, and said. Each file is checked against its sha256 in the
 * snapshot first, and replaced atomically, only if it still holds what was read (safe-write.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHubError } from '../../engine/errors.ts';
import { type ReadConfig, readConfig, replaceIfUnchanged } from './safe-write.ts';
import { lastSnapshot, originalBytes, type SnapshotEntry, sha256 } from './snapshots.ts';

/** What changed in a file since the command wrote it: lines it no longer has, lines it gained. */
export interface ChangedSince {
  removed: number;
  added: number;
}

export interface RollbackFile {
  harness: string;
  path: string;
  /** restore: its old bytes come back; remove: it did not exist; unchanged: it already holds them. */
  action: 'restore' | 'remove' | 'unchanged';
  /**
   * Changes made since the command wrote it, which a rollback would undo too; `unknown` when the
   * snapshot cannot tell (one taken before snapshots kept what was written).
   */
  since?: ChangedSince | 'unknown';
  /** sha256 of the file as this plan read it (null: absent): the bytes a consent covers. */
  seen: string | null;
}

export interface RestoredFile extends RollbackFile {
  /** restored or removed: done; kept: changed since, and no consent to undo that; failed: see message. */
  status: 'restored' | 'removed' | 'unchanged' | 'kept' | 'failed';
  message?: string;
}

/** What rolling back the last snapshot would do, file by file; changes nothing. */
export function rollbackPlan(hubDir: string): { snapshot: string; takenBy: string; files: RollbackFile[] } {
  const { dir, manifest } = lastSnapshot(hubDir);
  return {
    snapshot: dir,
    takenBy: manifest.takenBy,
    files: manifest.files.map((entry) => planFor(dir, entry, readConfig(entry.path))),
  };
}

function planFor(dir: string, entry: SnapshotEntry, read: ReadConfig): RollbackFile {
  const now = read.bytes === null ? null : sha256(read.bytes);
  const base = { harness: entry.harness, path: entry.path, seen: now };
  if (now === entry.sha256 && (read.bytes === null || read.mode === entry.mode)) {
    return { ...base, action: 'unchanged' };
  }
  const action = entry.copy === null ? 'remove' : 'restore';
  // What the command left in the file; nothing when it did not write it.
  const wrote =
    entry.written === false
      ? originalBytes(dir, entry)
      : entry.wrote !== undefined && existsSync(join(dir, entry.wrote))
        ? readFileSync(join(dir, entry.wrote))
        : undefined;
  if (wrote === undefined) return { ...base, action, since: 'unknown' };
  const current = read.bytes ?? Buffer.alloc(0);
  if (wrote !== null && sha256(current) === sha256(wrote)) return { ...base, action };
  return { ...base, action, since: lineChanges(wrote ?? Buffer.alloc(0), current) };
}

/** Lines of `before` no longer in `after`, and lines of `after` not in `before` (as multisets). */
function lineChanges(before: Buffer, after: Buffer): ChangedSince {
  const count = (text: Buffer) => {
    const lines = new Map<string, number>();
    for (const line of text.toString('utf8').split('\n')) lines.set(line, (lines.get(line) ?? 0) + 1);
    return lines;
  };
  const was = count(before);
  const is = count(after);
  let removed = 0;
  let added = 0;
  for (const [line, n] of was) removed += Math.max(0, n - (is.get(line) ?? 0));
  for (const [line, n] of is) added += Math.max(0, n - (was.get(line) ?? 0));
  return { removed, added };
}

/**
 * Rolls the last snapshot back: every file whose only change is the command's own, and with
 * `undoLaterChanges` also those changed since. A file changed since is otherwise kept. `shown`
 * is the plan the person saw: a file whose bytes differ from what it showed (it changed while
 * they read it) is kept too, since their answer did not cover what it holds now.
 */
export function rollback(
  hubDir: string,
  undoLaterChanges: boolean,
  shown?: readonly RollbackFile[],
): { snapshot: string; takenBy: string; files: RestoredFile[] } {
  const { dir, manifest } = lastSnapshot(hubDir);
  const seen = new Map(shown?.map((file) => [file.path, file.seen]));
  const files = manifest.files.map((entry): RestoredFile => {
    const base = { harness: entry.harness, path: entry.path, seen: null };
    try {
      const read = readConfig(entry.path);
      const plan = planFor(dir, entry, read);
      if (plan.action === 'unchanged') return { ...plan, status: 'unchanged' };
      if (shown !== undefined && seen.get(entry.path) !== plan.seen) {
        return { ...plan, status: 'kept', message: 'it changed after the plan was shown; kept as it is' };
      }
      if (plan.since !== undefined && !undoLaterChanges) {
        return { ...plan, status: 'kept', message: 'it changed since the snapshot was taken; kept as it is' };
      }
      const original = originalBytes(dir, entry);
      replaceIfUnchanged({ ...read, mode: entry.mode }, original);
      return { ...plan, status: original === null ? 'removed' : 'restored' };
    } catch (error) {
      const message = isHubError(error) || error instanceof Error ? error.message : String(error);
      return { ...base, action: 'restore', status: 'failed', message };
    }
  });
  return { snapshot: dir, takenBy: manifest.takenBy, files };
}
