/**
 * Claude Code (research §1): `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set) holds
 * the user scope in top-level `mcpServers` and each project's private (`local`) entries under
 * `projects["/abs/path"].mcpServers`; a project shares servers in `<project>/.mcp.json`. Strict
 * JSON; `${VAR}` and `${VAR:-default}` expand. Skills: `~/.claude/skills`, `<project>/.claude/skills`.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'claude-code',
  interpolation: 'braces-default',
  urlKeys: [{ key: 'url', kind: 'http' }],
};

export function claudeCodeFiles(files: HarnessFiles): { state: string; project: string } {
  const dir = files.env.CLAUDE_CONFIG_DIR;
  const state = dir ? joinPath(dir, '.claude.json') : joinPath(files.home, '.claude.json');
  return { state, project: joinPath(files.cwd, '.mcp.json') };
}

export function readClaudeCode(files: HarnessFiles): HarnessReport {
  const report = emptyReport('claude-code');
  const { state, project } = claudeCodeFiles(files);
  readInto(report, files, state, 'json', (value) => {
    const root = objectOf(value) ?? {};
    report.servers.push(
      ...readEntries(root.mcpServers, dialect, { file: state, scope: 'user' }, report.errors),
    );
    for (const [path, entry] of Object.entries(objectOf(root.projects) ?? {})) {
      const place = { file: state, scope: 'local' as const, project: path };
      report.servers.push(...readEntries(objectOf(entry)?.mcpServers, dialect, place, report.errors));
    }
  });
  readInto(report, files, project, 'json', (value) => {
    const place = { file: project, scope: 'project' as const, project: files.cwd };
    report.servers.push(...readEntries(objectOf(value)?.mcpServers, dialect, place, report.errors));
  });
  return withSkills(report, files, [
    { path: joinPath(files.home, '.claude/skills') },
    { path: joinPath(files.cwd, '.claude/skills') },
  ]);
}
