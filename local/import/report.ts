/**
 * Building one harness's report: read each file it uses, hand what parsed to the harness's
 * own reading of it, and keep going after an error so the other files still count.
 */
import { type ConfigFormat, readConfig } from './config-file.ts';
import type { HarnessId, HarnessReport } from './found.ts';
import type { HarnessFiles } from './harness-files.ts';
import { type SkillRoot, skillPaths } from './skills.ts';

export function emptyReport(harness: HarnessId): HarnessReport {
  return { harness, filesRead: [], servers: [], errors: [], skills: 0, skillPaths: [] };
}

/**
 * Reads `file` into `report`; `use` gets the parsed value. Returns the value, or undefined when
 * absent or broken. A file the report already read (the project is the home folder, so the
 * project's `.cursor/mcp.json` is the user's) is not read twice.
 */
export function readInto(
  report: HarnessReport,
  files: HarnessFiles,
  file: string,
  format: ConfigFormat,
  use: (value: unknown) => void,
): unknown {
  const real = files.realpath(file);
  if (report.filesRead.some((read) => files.realpath(read) === real)) return undefined;
  const read = readConfig(files, file, format);
  if (read.kind === 'absent') return undefined;
  report.filesRead.push(file);
  if (read.kind === 'error') {
    report.errors.push(read.error);
    return undefined;
  }
  use(read.value);
  return read.value;
}

export function withSkills(
  report: HarnessReport,
  files: HarnessFiles,
  roots: readonly SkillRoot[],
): HarnessReport {
  report.skillPaths = skillPaths(files, roots);
  report.skills = report.skillPaths.length;
  return report;
}

/** `$XDG_CONFIG_HOME`, else `~/.config`. */
export function xdgConfig(files: HarnessFiles): string {
  const xdg = files.env.XDG_CONFIG_HOME;
  return xdg?.startsWith('/') ? xdg : `${files.home}/.config`;
}
