/**
 * A temporary HOME holding realistic harness configs, as people's machines have them: Claude
 * Code's hot `~/.claude.json` with other servers and state, a Codex config.toml with comments,
 * an inline env table and a profile after the servers, a Cursor mcp.json with comments, tabs and
 * trailing commas, and a Claude Desktop file with its preferences. The other servers' commands
 * do not exist, so a harness CLI that checks them fails fast and offline.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HarnessPlace } from '../../local/connect/harnesses.ts';
import { homePaths } from '../../local/home.ts';
import { initHub } from '../../local/local-hub.ts';

export const CLAUDE_JSON = `{
  "numStartups": 12,
  "installMethod": "npm",
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": "/nonexistent/server-memory",
      "args": ["--store",   "/tmp/memory.json"],
      "env": {}
    },
    "linear": {"type": "http", "url": "https://mcp.linear.app/mcp", "headers": {"Authorization": "Bearer lin_api_x"}}
  },
  "projects": {
    "/home/ada/src/app": {
      "allowedTools": [],
      "mcpServers": { "db": { "type": "stdio", "command": "/nonexistent/db", "args": [], "env": {} } }
    }
  }
}
`;

export const CODEX_TOML = `# Codex settings: do not lose this comment
model = "o3"  # the model I like
approval_policy = "on-request"

[mcp_servers.github]
# GitHub's server, with its token inline
command = "/nonexistent/server-github"
args = ["--stdio"]
env = { GITHUB_PERSONAL_ACCESS_TOKEN = "ghp_example" }

[mcp_servers.docs]
url = "https://docs.example.com/mcp"
bearer_token_env_var = "DOCS_TOKEN"

# profiles come after the servers
[profiles.fast]
model = "o4-mini"
`;

export const CURSOR_JSONC = `// Cursor MCP servers
{
\t"mcpServers": {
\t\t// the filesystem server
\t\t"filesystem": { "command": "/nonexistent/server-filesystem", "args": ["/home/ada"] },
\t\t"sentry": {
\t\t\t"url": "https://mcp.sentry.dev/mcp",
\t\t},
\t},
}
`;

export const DESKTOP_JSON = `{
  "mcpServers": {
    "puppeteer": { "command": "/nonexistent/server-puppeteer", "args": [] }
  },
  "preferences": { "quickEntryShortcut": "off", "menuBarEnabled": false }
}
`;

export interface FixtureHome {
  home: string;
  /** Where the hub lives (CAPABILITIES_HOME). */
  hub: string;
  place: HarnessPlace;
  files: { claudeCode: string; codex: string; cursor: string; claudeDesktop: string };
  read(path: string): string;
  remove(): void;
}

/** A HOME with the four harness files (or only the ones in `only`), each with realistic content. */
export function fixtureHome(only?: readonly (keyof FixtureHome['files'])[]): FixtureHome {
  const home = mkdtempSync(join(tmpdir(), 'capabilities-connect-'));
  const files = {
    claudeCode: join(home, '.claude.json'),
    codex: join(home, '.codex', 'config.toml'),
    cursor: join(home, '.cursor', 'mcp.json'),
    claudeDesktop: join(home, '.config', 'Claude', 'claude_desktop_config.json'),
  };
  const texts = {
    claudeCode: CLAUDE_JSON,
    codex: CODEX_TOML,
    cursor: CURSOR_JSONC,
    claudeDesktop: DESKTOP_JSON,
  };
  for (const key of Object.keys(files) as (keyof typeof files)[]) {
    mkdirSync(dirname(files[key]), { recursive: true });
    if (!only || only.includes(key))
      writeFileSync(files[key], texts[key], { mode: key === 'cursor' ? 0o644 : 0o600 });
  }
  mkdirSync(join(home, '.claude'), { recursive: true });
  // The hub the entries name, as `hub init` made it: connect refuses one that does not exist.
  initHub(homePaths({ CAPABILITIES_HOME: join(home, 'hub-home') }), Date.now());
  return {
    home,
    hub: join(home, 'hub-home'),
    place: {
      home,
      env: { CODEX_HOME: join(home, '.codex'), XDG_CONFIG_HOME: join(home, '.config') },
      platform: 'linux',
    },
    files,
    read: (path) => readFileSync(path, 'utf8'),
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** The environment a harness CLI or ours runs with in `fixture`'s HOME. */
export function harnessEnv(fixture: FixtureHome, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CLAUDE_CONFIG_DIR: _claude, ...rest } = base;
  return {
    ...rest,
    HOME: fixture.home,
    CODEX_HOME: join(fixture.home, '.codex'),
    XDG_CONFIG_HOME: join(fixture.home, '.config'),
    CAPABILITIES_HOME: fixture.hub,
  };
}
