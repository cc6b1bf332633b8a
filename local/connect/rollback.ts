/**
 * `hub rollback`: every harness file of the last snapshot back to its bytes then, with its mode;
 * a file that did not exist then is removed again. Each file is checked against its sha256 in
 * the snapshot first, and replaced atomically (safe-write.ts). Changes made to a file after the
 * snapshot are undone with it: rollback is the whole file, not the entry (that is disconnect).
 */
import { isHubError } from '../../engine/errors.ts';
import { readConfig, replaceIfUnchanged } from './safe-write.ts';
import { lastSnapshot, originalBytes, sha256 } from './snapshots.ts';

export interface RestoredFile {
  harness: string;
  path: string;
  /** restored: its old bytes are back; removed: it did not exist; unchanged: it already held them. */
  status: 'restored' | 'removed' | 'unchanged' | 'failed';
  message?: string;
}

export function rollback(hubDir: string): { snapshot: string; takenBy: string; files: RestoredFile[] } {
  const { dir, manifest } = lastSnapshot(hubDir);
  const files = manifest.files.map((entry): RestoredFile => {
    const base = { harness: entry.harness, path: entry.path };
    try {
      const original = originalBytes(dir, entry);
      const read = readConfig(entry.path);
      const now = read.bytes === null ? null : sha256(read.bytes);
      if (now === entry.sha256 && (read.bytes === null || read.mode === entry.mode)) {
        return { ...base, status: 'unchanged' };
      }
      replaceIfUnchanged({ ...read, mode: entry.mode }, original);
      return { ...base, status: original === null ? 'removed' : 'restored' };
    } catch (error) {
      const message = isHubError(error) || error instanceof Error ? error.message : String(error);
      return { ...base, status: 'failed', message };
    }
  });
  return { snapshot: dir, takenBy: manifest.takenBy, files };
}
