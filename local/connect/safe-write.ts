/**
 * How connect, disconnect and rollback change a harness file: read it once (`readConfig`), and
 * later replace it only if it still holds exactly those bytes (`replaceIfUnchanged`). The new
 * bytes go to a temporary file in the same folder, synced, given the file's mode, and renamed
 * over it, so the file is always the old bytes or the new, never half of either. A file that
 * changed since it was read (a running harness rewrote it) is not touched: a conflict, with the
 * temporary file removed. Writes go through a symlink to its target, so a dotfile manager's
 * link stays a link.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HubError } from '../../engine/errors.ts';

/** A harness file as read: its bytes and mode, or that it does not exist. */
export interface ReadConfig {
  path: string;
  bytes: Buffer | null;
  /** Permission bits (0o600 for a file that does not exist yet). */
  mode: number;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The file's bytes, or null when it does not exist; a file that cannot be read is named. */
export function readConfig(path: string): ReadConfig {
  try {
    const bytes = readFileSync(path);
    return { path, bytes, mode: statSync(path).mode & 0o7777 };
  } catch (error) {
    if (code(error) === 'ENOENT') return { path, bytes: null, mode: 0o600 };
    throw new HubError(
      'denied',
      `cannot read ${path} (${code(error) ?? (error as Error).message}); check its permissions, then run the command again`,
    );
  }
}

function currentBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if (code(error) === 'ENOENT') return null;
    throw error;
  }
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/** The path a write should land on: a symlink's target, else the path itself. */
function writeTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `read.path` with `next` (or removes it, with null) if it still holds `read.bytes`;
 * otherwise throws a conflict and leaves it alone.
 */
export function replaceIfUnchanged(read: ReadConfig, next: Buffer | null): void {
  const target = writeTarget(read.path);
  const folder = dirname(target);
  const changed = () =>
    new HubError(
      'conflict',
      `${read.path} changed while this command ran (another program wrote it); nothing was written to it. Run the command again.`,
    );
  if (next === null) {
    if (!sameBytes(currentBytes(target), read.bytes)) throw changed();
    if (read.bytes !== null) unlinkSync(target);
    syncFolder(folder);
    return;
  }
  const temp = join(folder, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeSync(fd, next);
      fchmodSync(fd, read.mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The last look before the rename: bytes, not mtimes, so a same-second rewrite is seen too.
    if (!sameBytes(currentBytes(target), read.bytes)) throw changed();
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed into place, or never made
    }
    throw error;
  }
  syncFolder(folder);
}
