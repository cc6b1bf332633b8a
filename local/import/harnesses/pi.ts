/**
 * pi (research §7, earendil-works/pi `packages/coding-agent/docs/mcp.md`): the built-in MCP reads
 * `$PI_CODING_AGENT_DIR/mcp.json` (default `~/.pi/agent/mcp.json`) and a trusted project's
 * `.pi/mcp.json`; JSON, key `mcpServers`, `enabled: false` turns one off, remote is `url` +
 * `headers`, Streamable HTTP only. `${NAME}` references the environment (a `!command` value
 * stays as written). Skills: `~/.pi/agent/skills`, `~/.agents/skills`, `<project>/.pi/skills`,
 * `<project>/.agents/skills`, where a `*.md` file directly in the root is a skill too.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'pi',
  interpolation: 'braces',
  urlKeys: [{ key: 'url', kind: 'http' }],
};

export function piAgentDir(files: HarnessFiles): string {
  return files.env.PI_CODING_AGENT_DIR || joinPath(files.home, '.pi/agent');
}

export function readPi(files: HarnessFiles): HarnessReport {
  const report = emptyReport('pi');
  const agent = piAgentDir(files);
  const user = joinPath(agent, 'mcp.json');
  const project = joinPath(files.cwd, '.pi/mcp.json');
  readInto(report, files, user, 'json', (value) => {
    report.servers.push(
      ...readEntries(objectOf(value)?.mcpServers, dialect, { file: user, scope: 'user' }, report.errors),
    );
  });
  readInto(report, files, project, 'json', (value) => {
    const place = { file: project, scope: 'project' as const, project: files.cwd };
    report.servers.push(...readEntries(objectOf(value)?.mcpServers, dialect, place, report.errors));
  });
  return withSkills(report, files, [
    { path: joinPath(agent, 'skills'), directMarkdown: true },
    { path: joinPath(files.home, '.agents/skills'), directMarkdown: true },
    { path: joinPath(files.cwd, '.pi/skills'), directMarkdown: true },
    { path: joinPath(files.cwd, '.agents/skills'), directMarkdown: true },
  ]);
}
