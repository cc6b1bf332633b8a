/**
 * Gemini CLI (research §8, gemini-cli `docs/tools/mcp-server.md`): `~/.gemini/settings.json` and
 * `<project>/.gemini/settings.json`, JSONC, key `mcpServers`. Remote: `httpUrl` is Streamable HTTP;
 * `url` with `type` is what `type` says; `url` alone is SSE. `$VAR` and `${VAR}` expand.
 * Skills: `~/.gemini/skills`, `<project>/.gemini/skills`.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'gemini',
  interpolation: 'dollar',
  urlKeys: [
    { key: 'httpUrl', kind: 'http' },
    { key: 'url', kind: 'sse' },
  ],
};

export function readGemini(files: HarnessFiles): HarnessReport {
  const report = emptyReport('gemini');
  const user = joinPath(files.home, '.gemini/settings.json');
  const project = joinPath(files.cwd, '.gemini/settings.json');
  readInto(report, files, user, 'jsonc', (value) => {
    report.servers.push(
      ...readEntries(objectOf(value)?.mcpServers, dialect, { file: user, scope: 'user' }, report.errors),
    );
  });
  if (project !== user) {
    readInto(report, files, project, 'jsonc', (value) => {
      const place = { file: project, scope: 'project' as const, project: files.cwd };
      report.servers.push(...readEntries(objectOf(value)?.mcpServers, dialect, place, report.errors));
    });
  }
  return withSkills(report, files, [
    { path: joinPath(files.home, '.gemini/skills') },
    { path: joinPath(files.cwd, '.gemini/skills') },
  ]);
}
