/**
 * Hermes (research §6, NousResearch/hermes-agent `hermes_cli/mcp_config.py`, `tools/mcp_tool.py`):
 * `$HERMES_HOME/config.yaml`, default `~/.hermes/config.yaml`, YAML, top-level `mcp_servers`,
 * user scope only. stdio `command`/`args` (a legacy string is split)/`env`; remote `url` +
 * `headers` (Streamable HTTP or SSE, inferred by Hermes: read as HTTP); `enabled: false` turns one
 * off. `${VAR}` and `${env:VAR}` expand (secrets usually sit in `~/.hermes/.env`, never read here).
 * Skills: `~/.hermes/skills/<category>/<skill>/SKILL.md`, found recursively.
 */
import { objectOf } from '../config-file.ts';
import type { HarnessReport } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';
import { type EntryDialect, readEntries } from '../server-entry.ts';

const dialect: EntryDialect = {
  harness: 'hermes',
  interpolation: 'hermes',
  urlKeys: [{ key: 'url', kind: 'http' }],
};

export function hermesHome(files: HarnessFiles): string {
  return files.env.HERMES_HOME || joinPath(files.home, '.hermes');
}

export function readHermes(files: HarnessFiles): HarnessReport {
  const report = emptyReport('hermes');
  const home = hermesHome(files);
  const file = joinPath(home, 'config.yaml');
  readInto(report, files, file, 'yaml', (value) => {
    report.servers.push(
      ...readEntries(objectOf(value)?.mcp_servers, dialect, { file, scope: 'user' }, report.errors),
    );
  });
  return withSkills(report, files, [{ path: joinPath(home, 'skills') }]);
}
