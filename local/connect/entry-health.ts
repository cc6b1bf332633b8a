/**
 * `hub doctor`'s look at the entries `hub connect` wrote: for each harness it writes to, the
 * user-level `capabilities` entry (read with the importer's own reader for that harness), and
 * whether what it launches is still there. An entry whose command, or whose script when the
 * command is a Node, no longer exists (a checkout moved, a Node version removed, an npx cache
 * cleared) fails, with the fix: connect again. A bare command (`npx`) must be on PATH. Doctor
 * only reads the files.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import type { HarnessFiles } from '../import/harness-files.ts';
import { readHarnesses } from '../import/read-harnesses.ts';
import { ENTRY_NAME, HARNESS_IDS, type HarnessId } from './harnesses.ts';

export interface EntryHealth {
  harness: HarnessId;
  /** The harness file holding the entry. */
  file: string;
  /** The command line it launches. */
  line: string;
  /** What is missing, when something is; undefined: it can start. */
  missing?: string | undefined;
}

/** The `capabilities` entry of each harness that has one, with what it launches and what is gone. */
export function connectedEntries(files: HarnessFiles): EntryHealth[] {
  const scan = readHarnesses(files, HARNESS_IDS);
  const found: EntryHealth[] = [];
  for (const server of scan.harnesses.flatMap((report) => report.servers)) {
    if (server.name !== ENTRY_NAME || server.scope !== 'user' || server.transport.kind !== 'stdio') continue;
    const { command, args } = server.transport;
    found.push({
      harness: server.harness as HarnessId,
      file: server.file,
      line: [command, ...args].join(' '),
      missing: missingPart(command, args, files.env.PATH),
    });
  }
  return found;
}

/** What of `command args…` is no longer there: the command, or the script a Node was given. */
function missingPart(command: string, args: readonly string[], path: string | undefined): string | undefined {
  if (isAbsolute(command)) {
    if (!runnable(command)) return `its command ${command} no longer exists`;
  } else if (!onPath(command, path)) {
    return `its command ${command} is not on PATH`;
  }
  const script = args[0];
  if (/^node(\.exe)?$/.test(basename(command)) && script !== undefined && isAbsolute(script)) {
    if (!isFile(script)) return `the script it runs, ${script}, no longer exists`;
  }
  return undefined;
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(command: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => isAbsolute(dir) && runnable(join(dir, command)));
}
