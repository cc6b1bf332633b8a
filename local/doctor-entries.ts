/**
 * `hub doctor`'s checks of the agents' entries: each `capabilities` entry `hub connect` wrote
 * (local/connect/entry-health.ts), ok when what it launches is there, failing with the command
 * that writes it again when it is not: `hub connect` for that harness (and its profile), run with
 * the capabilities doing the check.
 */
import { homedir } from 'node:os';
import { connectedEntries } from './connect/entry-health.ts';
import { harness } from './connect/harnesses.ts';
import type { Check } from './doctor.ts';
import { nodeHarnessFiles } from './import/node-files.ts';

/** One check per harness entry found; none when no harness has one. */
export function entryChecks(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): Check[] {
  const place = { home, env, platform: process.platform };
  return connectedEntries(nodeHarnessFiles({ home, env })).map((entry) => {
    const title = harness(entry.harness, place).title;
    const name = `${title} entry`;
    if (entry.missing === undefined) return { name, level: 'ok', detail: `runs ${entry.line}` };
    return {
      name,
      level: 'fail',
      detail: `${entry.file}: ${entry.missing}, so ${title} cannot start the hub`,
      fix: `capabilities hub connect --client ${entry.harness}${profileOf(entry.line)}`,
    };
  });
}

/** ` --profile <name>` when the entry serves another profile than `default`. */
function profileOf(line: string): string {
  const profile = / --profile (\S+)/.exec(line)?.[1];
  return profile === undefined || profile === 'default' ? '' : ` --profile ${profile}`;
}
