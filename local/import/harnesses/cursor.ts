/**
 * Cursor (research §4): `~/.cursor/mcp.json` and `<project>/.cursor/mcp.json`, key `mcpServers`,
 * read tolerantly (comments allowed, as other readers do). `type` is optional: `url` alone is
 * Streamable HTTP. `${env:NAME}` references the environment; `${userHome}` and (in a project
 * file) `${workspaceFolder}` are Cursor's own variables, filled in here. Skills: `.cursor/skills`,
 * `.agents/skills` and the Claude folders, user and project.
 */
import { objectOf } from '../config-file.ts';
import type { FoundServer, HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'cursor',
  interpolation: 'env-colon',
  urlKeys: [{ key: 'url', kind: 'http' }],
};

function fill(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\{(userHome|workspaceFolder|workspaceFolderBasename|pathSeparator|\/)\}/g,
    (all, name: string) => (name === '/' || name === 'pathSeparator' ? '/' : (vars[name] ?? all)),
  );
}

function withVariables(server: FoundServer, vars: Record<string, string>): FoundServer {
  const t = server.transport;
  const map = (r: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fill(v, vars)]));
  const transport =
    t.kind === 'stdio'
      ? {
          ...t,
          command: fill(t.command, vars),
          args: t.args.map((a) => fill(a, vars)),
          env: map(t.env),
          cwd: t.cwd === undefined ? undefined : fill(t.cwd, vars),
        }
      : { ...t, url: fill(t.url, vars), headers: map(t.headers) };
  return { ...server, transport };
}

export function readCursor(files: HarnessFiles): HarnessReport {
  const report = emptyReport('cursor');
  const user = joinPath(files.home, '.cursor/mcp.json');
  const project = joinPath(files.cwd, '.cursor/mcp.json');
  const folder = files.cwd.split('/').filter(Boolean).pop() ?? '';
  readInto(report, files, user, 'jsonc', (value) => {
    const found = readEntries(
      objectOf(value)?.mcpServers,
      dialect,
      { file: user, scope: 'user' },
      report.errors,
    );
    report.servers.push(...found.map((s) => withVariables(s, { userHome: files.home })));
  });
  readInto(report, files, project, 'jsonc', (value) => {
    const place = { file: project, scope: 'project' as const, project: files.cwd };
    const vars = { userHome: files.home, workspaceFolder: files.cwd, workspaceFolderBasename: folder };
    const found = readEntries(objectOf(value)?.mcpServers, dialect, place, report.errors);
    report.servers.push(...found.map((s) => withVariables(s, vars)));
  });
  return withSkills(
    report,
    files,
    [files.home, files.cwd].flatMap((base) =>
      ['.cursor/skills', '.agents/skills', '.claude/skills'].map((dir) => ({ path: joinPath(base, dir) })),
    ),
  );
}
