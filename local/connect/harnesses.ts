/**
 * The harnesses `hub connect` writes to: where each keeps its user-level MCP configuration on
 * Linux and macOS, in which format, under which key, and the exact shape of the `capabilities`
 * entry it reads. The shapes are what the harness's own CLI writes for the same server where it
 * has one (checked with Claude Code 2.1 `claude mcp add --scope user` and Codex 0.171
 * `codex mcp add` in a temporary HOME, test/node/connect.test.ts):
 *
 * - Claude Code: `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`; top-level
 *   `mcpServers.capabilities = { type: "stdio", command, args, env }` (`env` always present,
 *   `{}` when empty, as `claude mcp add` writes it). Strict JSON.
 * - Codex: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`; `[mcp_servers.capabilities]`
 *   with `command`, `args` and, when there is one, `[mcp_servers.capabilities.env]`.
 * - Cursor: `~/.cursor/mcp.json`, `mcpServers.capabilities = { command, args, env? }`. JSONC.
 * - Claude Desktop: macOS `~/Library/Application Support/Claude/claude_desktop_config.json`,
 *   Linux `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` (else `~/.config/Claude/…`; there is
 *   no official Linux build, community builds use this). Strict JSON, same entry as Cursor.
 *
 * A harness is found when its file or its folder exists; connect then creates the file.
 */
import { join } from 'node:path';
import { HubError } from '../../engine/errors.ts';
import type { StdioEntry } from '../setup-snippets.ts';

export const HARNESS_IDS = ['claude-code', 'codex', 'cursor', 'claude-desktop'] as const;
export type HarnessId = (typeof HARNESS_IDS)[number];

/** The name of the one entry connect writes into each harness. */
export const ENTRY_NAME = 'capabilities';

export type ConfigFormat = 'json' | 'jsonc' | 'toml';

export interface Harness {
  id: HarnessId;
  /** For messages: "Claude Code". */
  title: string;
  /** The user-level config file, absolute. */
  file: string;
  /** The folder whose presence says the harness is installed (when the file is absent). */
  folder: string;
  format: ConfigFormat;
  /** Where the servers live in the file: `mcpServers` or `mcp_servers`. */
  serversKey: string;
  /** The entry as this harness reads it. */
  entry(stdio: StdioEntry): Record<string, unknown>;
}

/** Where things are: the person's HOME, the environment, the platform (passed in for tests). */
export interface HarnessPlace {
  home: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

const plain = (stdio: StdioEntry): Record<string, unknown> => ({ ...stdio });

export function harness(id: HarnessId, place: HarnessPlace): Harness {
  const { home, env } = place;
  switch (id) {
    case 'claude-code': {
      const folder = env.CLAUDE_CONFIG_DIR?.trim() || home;
      return {
        id,
        title: 'Claude Code',
        file: join(folder, '.claude.json'),
        folder: env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'),
        format: 'json',
        serversKey: 'mcpServers',
        entry: (stdio) => ({ type: 'stdio', command: stdio.command, args: stdio.args, env: stdio.env ?? {} }),
      };
    }
    case 'codex': {
      const folder = env.CODEX_HOME?.trim() || join(home, '.codex');
      return {
        id,
        title: 'Codex',
        file: join(folder, 'config.toml'),
        folder,
        format: 'toml',
        serversKey: 'mcp_servers',
        entry: plain,
      };
    }
    case 'cursor': {
      const folder = join(home, '.cursor');
      return {
        id,
        title: 'Cursor',
        file: join(folder, 'mcp.json'),
        folder,
        format: 'jsonc',
        serversKey: 'mcpServers',
        entry: plain,
      };
    }
    case 'claude-desktop': {
      const folder =
        place.platform === 'darwin'
          ? join(home, 'Library', 'Application Support', 'Claude')
          : join(env.XDG_CONFIG_HOME?.trim() || join(home, '.config'), 'Claude');
      return {
        id,
        title: 'Claude Desktop',
        file: join(folder, 'claude_desktop_config.json'),
        folder,
        format: 'json',
        serversKey: 'mcpServers',
        entry: plain,
      };
    }
  }
}

/** `claude-code,codex` as harness ids, or an invalid_input naming the unknown one. */
export function parseClients(list: string): HarnessId[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!(HARNESS_IDS as readonly string[]).includes(name)) {
      throw new HubError(
        'invalid_input',
        `unknown client "${name}"; --client takes ${HARNESS_IDS.join(', ')}`,
      );
    }
  }
  if (names.length === 0) throw new HubError('invalid_input', `--client takes ${HARNESS_IDS.join(', ')}`);
  return [...new Set(names)] as HarnessId[];
}
