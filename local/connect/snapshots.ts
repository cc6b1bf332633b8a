/**
 * Snapshots of harness files, taken before connect or disconnect writes any of them:
 * `<home>/hub/snapshots/<timestamp>/` (mode 700) holds each file's original bytes as
 * `<harness>.orig` (mode 600; none when the file did not exist) and `snapshot.json` (mode 600)
 * saying what it holds: harness, path, existed, sha256, mode, and for `connect --replace` the
 * entries it turned off in that file (`turnedOff`: names and exact values, which `disconnect`
 * puts back; turned-off.ts), and what the command wrote in its place (`<harness>.new`), so a
 * rollback can tell the command's own edit from a change made since (Claude Code rewrites its
 * file itself). snapshot.json is written last, so a folder without it (a crash midway) is not a
 * snapshot. The last snapshot is the folder whose name sorts last; rollback restores it byte for
 * byte.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import { ensureDir } from '../home.ts';
import { HARNESS_IDS } from './harnesses.ts';
import type { ReadConfig } from './safe-write.ts';

const SnapshotFile = z.object({
  harness: z.enum(HARNESS_IDS),
  path: z.string(),
  existed: z.boolean(),
  /** Of the original bytes; null when the file did not exist. */
  sha256: z.string().nullable(),
  mode: z.number().int(),
  /** The file in the snapshot folder holding the bytes; null when the file did not exist. */
  copy: z.string().nullable(),
  /** The server entries `connect --replace` removed from this file, exactly as they were. */
  turnedOff: z.array(z.object({ name: z.string(), value: z.record(z.string(), z.unknown()) })).optional(),
  /** False when the command then failed to write this file (it changed under it): nothing of it was done. */
  written: z.boolean().optional(),
  /** The file in the snapshot folder holding what the command wrote in its place (absent before 0.1.0). */
  wrote: z.string().optional(),
});
export const SnapshotManifest = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  /** The command that took it: `connect` or `disconnect`. */
  takenBy: z.string(),
  files: z.array(SnapshotFile),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;
export type SnapshotEntry = z.infer<typeof SnapshotFile>;
export type TurnedOffEntry = NonNullable<SnapshotEntry['turnedOff']>[number];

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export const snapshotsDir = (hubDir: string): string => join(hubDir, 'snapshots');

function writeNew(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A new snapshot of `files` (as they were read); returns its folder. */
export function takeSnapshot(
  hubDir: string,
  now: Date,
  takenBy: string,
  files: readonly {
    harness: SnapshotEntry['harness'];
    read: ReadConfig;
    turnedOff?: TurnedOffEntry[];
    /** What the command will write in the file's place. */
    next?: Buffer;
  }[],
): string {
  const root = snapshotsDir(hubDir);
  ensureDir(root);
  const stamp = now.toISOString().replaceAll(':', '-');
  let dir = join(root, stamp);
  for (let n = 2; existsSync(dir); n++) dir = join(root, `${stamp}-${n}`);
  ensureDir(dir);
  const entries: SnapshotEntry[] = files.map(({ harness, read, turnedOff, next }) => {
    const copy = read.bytes === null ? null : `${harness}.orig`;
    if (copy !== null && read.bytes !== null) writeNew(join(dir, copy), read.bytes);
    if (next !== undefined) writeNew(join(dir, `${harness}.new`), next);
    return {
      harness,
      path: read.path,
      existed: read.bytes !== null,
      sha256: read.bytes === null ? null : sha256(read.bytes),
      mode: read.mode,
      copy,
      ...(turnedOff?.length ? { turnedOff } : {}),
      ...(next === undefined ? {} : { wrote: `${harness}.new` }),
    };
  });
  const manifest: SnapshotManifest = { version: 1, createdAt: now.toISOString(), takenBy, files: entries };
  writeNew(join(dir, 'snapshot.json'), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return dir;
}

/**
 * Marks the files at `paths` of the snapshot in `dir` as not written: the command that took it
 * failed to write them, so nothing it recorded for them happened (a disconnect that failed put
 * nothing back). snapshot.json is replaced whole, atomically.
 */
export function markUnwritten(dir: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const file = join(dir, 'snapshot.json');
  const manifest = SnapshotManifest.parse(JSON.parse(readFileSync(file, 'utf8')));
  const files = manifest.files.map((entry) =>
    paths.includes(entry.path) ? { ...entry, written: false } : entry,
  );
  const next = `${file}.next`;
  writeFileSync(next, `${JSON.stringify({ ...manifest, files }, null, 2)}\n`, { mode: 0o600 });
  renameSync(next, file);
}

/** Every complete snapshot, the last first; one this version cannot read is a corrupt error. */
export function* snapshotsNewestFirst(
  hubDir: string,
): Generator<{ dir: string; manifest: SnapshotManifest }> {
  const root = snapshotsDir(hubDir);
  const names = existsSync(root) ? readdirSync(root).sort().reverse() : [];
  for (const name of names) {
    const file = join(root, name, 'snapshot.json');
    if (!existsSync(file)) continue;
    const parsed = SnapshotManifest.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      throw new HubError(
        'corrupt',
        `${file} is not a snapshot this version reads; move that folder away to restore an older one`,
      );
    yield { dir: join(root, name), manifest: parsed.data };
  }
}

/** The last complete snapshot, or a not_found saying there is none to restore. */
export function lastSnapshot(hubDir: string): { dir: string; manifest: SnapshotManifest } {
  for (const snapshot of snapshotsNewestFirst(hubDir)) return snapshot;
  const root = snapshotsDir(hubDir);
  throw new HubError(
    'not_found',
    `there is no snapshot in ${root} to roll back to; connect and disconnect take one before they write`,
  );
}

/** The original bytes of `entry` (null: the file did not exist), checked against its sha256. */
export function originalBytes(dir: string, entry: SnapshotEntry): Buffer | null {
  if (entry.copy === null) return null;
  const bytes = readFileSync(join(dir, entry.copy));
  if (sha256(bytes) !== entry.sha256) {
    throw new HubError(
      'corrupt',
      `${join(dir, entry.copy)} does not match its sha256 in snapshot.json; it was changed, so it is not restored`,
    );
  }
  return bytes;
}
