/**
 * Windsurf (research §10): `~/.codeium/windsurf/mcp_config.json` on every OS, global only, JSON,
 * key `mcpServers`. Remote servers use `serverUrl`; `url` from a copied Cursor snippet is read too.
 * `${env:VAR}` references the environment (third-party docs: userjot.com/docs/mcp-windsurf,
 * newtalaria/docs `mcp/windsurf.md`). Skills: `~/.codeium/windsurf/skills`, `<project>/.windsurf/skills`,
 * and the shared `.agents/skills`, user and project.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'windsurf',
  interpolation: 'env-colon',
  urlKeys: [
    { key: 'serverUrl', kind: 'http' },
    { key: 'url', kind: 'http' },
  ],
};

export function readWindsurf(files: HarnessFiles): HarnessReport {
  const report = emptyReport('windsurf');
  const file = joinPath(files.home, '.codeium/windsurf/mcp_config.json');
  readInto(report, files, file, 'json', (value) => {
    report.servers.push(
      ...readEntries(objectOf(value)?.mcpServers, dialect, { file, scope: 'user' }, report.errors),
    );
  });
  return withSkills(report, files, [
    { path: joinPath(files.home, '.codeium/windsurf/skills') },
    { path: joinPath(files.cwd, '.windsurf/skills') },
    { path: joinPath(files.home, '.agents/skills') },
    { path: joinPath(files.cwd, '.agents/skills') },
  ]);
}
