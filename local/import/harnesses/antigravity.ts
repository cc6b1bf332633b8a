/**
 * Antigravity (research §5): `~/.gemini/antigravity/mcp_config.json` (the IDE's original place)
 * and `~/.gemini/config/mcp_config.json` (newer builds; the first is often a symlink to it), both
 * read, one file counted once by real path. JSON, key `mcpServers`; remote servers use
 * `serverUrl` (`url` is read too); values are literal (no interpolation). Skills: all four folders
 * builds have used: `~/.gemini/antigravity/skills`, `~/.gemini/config/skills`, `<ws>/.agent/skills`,
 * `<ws>/.agents/skills`.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'antigravity',
  interpolation: 'none',
  urlKeys: [
    { key: 'serverUrl', kind: 'http' },
    { key: 'url', kind: 'http' },
  ],
};

export function readAntigravity(files: HarnessFiles): HarnessReport {
  const report = emptyReport('antigravity');
  const seen = new Set<string>();
  for (const file of [
    joinPath(files.home, '.gemini/antigravity/mcp_config.json'),
    joinPath(files.home, '.gemini/config/mcp_config.json'),
  ]) {
    const real = files.realpath(file);
    if (seen.has(real)) continue;
    seen.add(real);
    readInto(report, files, file, 'json', (value) => {
      report.servers.push(
        ...readEntries(objectOf(value)?.mcpServers, dialect, { file, scope: 'user' }, report.errors),
      );
    });
  }
  return withSkills(report, files, [
    { path: joinPath(files.home, '.gemini/antigravity/skills') },
    { path: joinPath(files.home, '.gemini/config/skills') },
    { path: joinPath(files.cwd, '.agent/skills') },
    { path: joinPath(files.cwd, '.agents/skills') },
  ]);
}
