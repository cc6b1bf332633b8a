/**
 * VS Code (research §9, code.visualstudio.com MCP configuration reference): the user profile's
 * `mcp.json` (Linux `~/.config/Code/User/`, macOS `~/Library/Application Support/Code/User/`)
 * and the workspace's `.vscode/mcp.json`; JSONC, key `servers`, `type` required (`stdio`, `http`,
 * `sse`). `${env:VAR}` references the environment; `${input:id}` is asked by VS Code itself and
 * stays as written. Skill folders are not established for VS Code, so none are counted.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'vscode',
  interpolation: 'env-colon',
  urlKeys: [{ key: 'url', kind: 'http' }],
};

export function vscodeUserFile(files: HarnessFiles): string | undefined {
  if (files.platform === 'darwin')
    return joinPath(files.home, 'Library/Application Support/Code/User/mcp.json');
  if (files.platform === 'linux') return joinPath(files.home, '.config/Code/User/mcp.json');
  return undefined;
}

export function readVscode(files: HarnessFiles): HarnessReport {
  const report = emptyReport('vscode');
  const user = vscodeUserFile(files);
  if (user) {
    readInto(report, files, user, 'jsonc', (value) => {
      report.servers.push(
        ...readEntries(objectOf(value)?.servers, dialect, { file: user, scope: 'user' }, report.errors),
      );
    });
  }
  const workspace = joinPath(files.cwd, '.vscode/mcp.json');
  readInto(report, files, workspace, 'jsonc', (value) => {
    const place = { file: workspace, scope: 'project' as const, project: files.cwd };
    report.servers.push(...readEntries(objectOf(value)?.servers, dialect, place, report.errors));
  });
  return report;
}
