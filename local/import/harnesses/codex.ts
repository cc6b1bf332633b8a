/**
 * Codex (research §3, openai/codex `codex-rs/config/src/mcp_types.rs`): `$CODEX_HOME/config.toml`,
 * default `~/.codex/config.toml`, tables `[mcp_servers.<name>]`. stdio: `command`, `args`, `env`,
 * `env_vars` (names passed through from the environment), `cwd`. Streamable HTTP (no SSE): `url`,
 * `bearer_token_env_var` (sent as `Authorization: Bearer …`), `http_headers`, `env_http_headers`
 * (header → variable name). `enabled = false` turns one off. Codex has no `${VAR}` syntax: the
 * `*_env_var(s)` fields become `${VAR}` references here, the one syntax the plan reads for Codex.
 * A project's `.codex/config.toml` counts only when the user config trusts that project.
 * Skills: `~/.agents/skills`, `<project>/.agents/skills`, legacy `$CODEX_HOME/skills` and `<project>/.codex/skills`.
 */
import { objectOf } from '../config-file.ts';
import type { FoundServer, HarnessReport, ReadError, Scope } from '../found.ts';
import { type HarnessFiles, joinPath } from '../harness-files.ts';
import { emptyReport, readInto, withSkills } from '../report.ts';

export function codexHome(files: HarnessFiles): string {
  return files.env.CODEX_HOME || joinPath(files.home, '.codex');
}

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(objectOf(value) ?? {})) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
      out[k] = String(v);
  }
  return out;
}

function envVarNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const name = objectOf(item)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}

function serverOf(
  name: string,
  entry: Record<string, unknown>,
  file: string,
  scope: Scope,
  project?: string,
): FoundServer | string {
  const base = {
    harness: 'codex' as const,
    file,
    scope,
    project,
    name,
    disabled: entry.enabled === false,
    interpolation: 'braces' as const,
  };
  if (typeof entry.command === 'string' && entry.command !== '') {
    const env = strings(entry.env);
    for (const variable of envVarNames(entry.env_vars)) env[variable] ??= `\${${variable}}`;
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    const cwd = typeof entry.cwd === 'string' ? entry.cwd : undefined;
    return { ...base, transport: { kind: 'stdio', command: entry.command, args, env, cwd } };
  }
  if (typeof entry.url === 'string' && entry.url !== '') {
    const headers = strings(entry.http_headers);
    for (const [header, variable] of Object.entries(strings(entry.env_http_headers)))
      headers[header] = `\${${variable}}`;
    if (typeof entry.bearer_token_env_var === 'string')
      headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
    // Codex refuses an inline `bearer_token`; it is still the person's token, so it is offered like any other.
    else if (typeof entry.bearer_token === 'string') headers.Authorization = `Bearer ${entry.bearer_token}`;
    return { ...base, transport: { kind: 'http', url: entry.url, headers } };
  }
  return 'has neither "command" nor "url"';
}

function readServers(
  root: unknown,
  file: string,
  scope: Scope,
  errors: ReadError[],
  project?: string,
): FoundServer[] {
  const found: FoundServer[] = [];
  for (const [name, raw] of Object.entries(objectOf(objectOf(root)?.mcp_servers) ?? {})) {
    const entry = objectOf(raw);
    const server = entry ? serverOf(name, entry, file, scope, project) : 'is not a table';
    if (typeof server === 'string')
      errors.push({ file, entry: name, message: `[mcp_servers.${name}] ${server}; it was skipped` });
    else found.push(server);
  }
  return found;
}

export function readCodex(files: HarnessFiles): HarnessReport {
  const report = emptyReport('codex');
  const home = codexHome(files);
  const user = joinPath(home, 'config.toml');
  let trusted = false;
  readInto(report, files, user, 'toml', (value) => {
    report.servers.push(...readServers(value, user, 'user', report.errors));
    const projects = objectOf(objectOf(value)?.projects) ?? {};
    trusted = objectOf(projects[files.cwd])?.trust_level === 'trusted';
  });
  if (trusted) {
    const project = joinPath(files.cwd, '.codex/config.toml');
    readInto(report, files, project, 'toml', (value) => {
      report.servers.push(...readServers(value, project, 'project', report.errors, files.cwd));
    });
  }
  return withSkills(report, files, [
    { path: joinPath(files.home, '.agents/skills') },
    { path: joinPath(files.cwd, '.agents/skills') },
    { path: joinPath(home, 'skills') },
    { path: joinPath(files.cwd, '.codex/skills') },
  ]);
}
