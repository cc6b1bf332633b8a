/**
 * Claude Desktop (research §2): `claude_desktop_config.json`, key `mcpServers`, stdio only (remote
 * servers live in the account), literal values. macOS `~/Library/Application Support/Claude/`;
 * Linux has no official build, community builds use `$XDG_CONFIG_HOME/Claude/` (`~/.config`).
 * No skills on disk.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, xdgConfig } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = { harness: 'claude-desktop', interpolation: 'none', urlKeys: [] };

export function claudeDesktopFile(files: HarnessFiles): string | undefined {
  if (files.platform === 'darwin') {
    return joinPath(files.home, 'Library/Application Support/Claude/claude_desktop_config.json');
  }
  if (files.platform === 'linux') return joinPath(xdgConfig(files), 'Claude/claude_desktop_config.json');
  return undefined;
}

export function readClaudeDesktop(files: HarnessFiles): HarnessReport {
  const report = emptyReport('claude-desktop');
  const file = claudeDesktopFile(files);
  if (!file) return report;
  readInto(report, files, file, 'json', (value) => {
    report.servers.push(
      ...readEntries(objectOf(value)?.mcpServers, dialect, { file, scope: 'user' }, report.errors),
    );
  });
  return report;
}
