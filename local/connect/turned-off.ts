/**
 * The direct server entries `hub connect --replace` turned off, as its snapshots record them
 * (snapshots.ts, `turnedOff`: each entry's name and exact value, per harness file), and which of
 * them `hub disconnect` still has to put back: those recorded by the connect snapshots of a file
 * newer than the last disconnect that wrote it, the newest record of a name winning. A value is
 * recorded only when JSON keeps it exactly (a TOML date would come back as a string), so what is
 * put back is equal to what was removed.
 */
import { isDeepStrictEqual } from 'node:util';
import { snapshotsNewestFirst, type TurnedOffEntry } from './snapshots.ts';

/** Whether `value` survives the snapshot's JSON unchanged. */
export function recordable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value);
}

/** The entries turned off in the harness file at `path` that no disconnect has put back yet. */
export function toPutBack(hubDir: string, path: string): TurnedOffEntry[] {
  const found = new Map<string, TurnedOffEntry>();
  for (const { manifest } of snapshotsNewestFirst(hubDir)) {
    // A file the command then failed to write: nothing it recorded for it happened.
    const files = manifest.files.filter((file) => file.path === path && file.written !== false);
    if (files.length === 0) continue;
    if (manifest.takenBy === 'disconnect') break;
    for (const entry of files.flatMap((file) => file.turnedOff ?? [])) {
      if (!found.has(entry.name)) found.set(entry.name, entry);
    }
  }
  return [...found.values()];
}
