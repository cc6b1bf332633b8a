/**
 * One server entry of the `mcpServers` dialect (Claude Code, Claude Desktop, Cursor, Gemini,
 * Windsurf, Antigravity, pi) and the shapes close to it (VS Code `servers`, Hermes
 * `mcp_servers`) turned into a `FoundServer`. Transport is `command` → stdio, else a URL key →
 * remote, with the harness's rule for what a URL without `type` means (research §0).
 */
import { objectOf } from './config-file.ts';
import type { FoundServer, FoundTransport, HarnessId, Interpolation, ReadError, Scope } from './found.ts';

export interface EntryDialect {
  harness: HarnessId;
  interpolation: Interpolation;
  /** Keys that hold a remote URL, first found wins, with the transport each means when `type` is absent. */
  urlKeys: readonly { key: string; kind: 'http' | 'sse' }[];
}

export interface EntryPlace {
  file: string;
  scope: Scope;
  project?: string | undefined;
}

function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(objectOf(value) ?? {})) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
      out[key] = String(item);
  }
  return out;
}

function argsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((a) => typeof a !== 'object').map(String);
  // Hermes coerces a legacy string (`_coerce_mcp_stdio_args`); a single string is one argument elsewhere.
  if (typeof value === 'string' && value.trim() !== '') return value.trim().split(/\s+/);
  return [];
}

function remoteKind(type: unknown, fallback: 'http' | 'sse'): 'http' | 'sse' {
  if (typeof type !== 'string') return fallback;
  const t = type.toLowerCase().replace(/[-_]/g, '');
  if (t === 'sse') return 'sse';
  if (t === 'http' || t === 'streamablehttp' || t === 'streamable') return 'http';
  return fallback;
}

function transportOf(entry: Record<string, unknown>, dialect: EntryDialect): FoundTransport | string {
  if (typeof entry.command === 'string' && entry.command.trim() !== '') {
    const cwd = typeof entry.cwd === 'string' ? entry.cwd : undefined;
    return { kind: 'stdio', command: entry.command, args: argsOf(entry.args), env: strings(entry.env), cwd };
  }
  for (const { key, kind } of dialect.urlKeys) {
    const url = entry[key];
    if (typeof url === 'string' && url.trim() !== '') {
      // Gemini's `httpUrl` is Streamable HTTP whatever `type` says.
      const explicit = key === 'httpUrl' ? 'http' : remoteKind(entry.type, kind);
      return { kind: explicit, url: url.trim(), headers: strings(entry.headers) };
    }
  }
  return `has neither "command" nor ${dialect.urlKeys.map((k) => `"${k.key}"`).join(' nor ')}`;
}

/** Every entry of a server map; an entry that names no transport is an error, the others still read. */
export function readEntries(
  map: unknown,
  dialect: EntryDialect,
  place: EntryPlace,
  errors: ReadError[],
): FoundServer[] {
  const found: FoundServer[] = [];
  for (const [name, raw] of Object.entries(objectOf(map) ?? {})) {
    const entry = objectOf(raw);
    if (!entry) {
      errors.push({
        file: place.file,
        entry: name,
        message: `server "${name}" is not an object; it was skipped`,
      });
      continue;
    }
    const transport = transportOf(entry, dialect);
    if (typeof transport === 'string') {
      errors.push({
        file: place.file,
        entry: name,
        message: `server "${name}" ${transport}; it was skipped`,
      });
      continue;
    }
    found.push({
      harness: dialect.harness,
      file: place.file,
      scope: place.scope,
      project: place.project,
      name,
      transport,
      disabled: entry.disabled === true || entry.enabled === false,
      interpolation: dialect.interpolation,
    });
  }
  return found;
}
