/**
 * What a person's machine looks like to the package tests (test/e2e/package.test.ts): a fresh
 * HOME holding realistic Claude Code, Codex and Cursor configs (real MCP servers from npm, one of
 * them in two harnesses under two names, one plaintext token, a project-scoped server, comments
 * in the TOML and the JSONC), and the environment a person's shell gives a command: their HOME,
 * a PATH with their Node and their npm's global bin, nothing of ours.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from '../node/cli-process.ts';

/** The Node the configs' servers run with (the checkout's): what a person's harness names. */
export const SERVER_NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const server = (name: string) =>
  join(REPO, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');
export const MEMORY = server('server-memory');
const EVERYTHING = server('server-everything');
const FILESYSTEM = server('server-filesystem');
const ECHO = join(REPO, 'test', 'fixtures', 'servers', 'echo-secret-server.ts');

/** The plaintext token in Claude Code's config: it must end up in the secret store and nowhere else. */
export const TOKEN = 'ghp_J1plaintextTokenInAHarnessConfig0042';

/** The sources `hub init --import` makes of the configs, and where each came from. */
export const IMPORTED = {
  memory: ['claude-code:memory', 'codex:knowledge'],
  github: ['claude-code:github'],
  files: ['claude-code:files'],
  everything: ['cursor:everything'],
};

export interface PersonHome {
  home: string;
  /** A project folder with a project-scoped server. */
  project: string;
}

/** A fresh HOME with the configs written. */
export function personHome(): PersonHome {
  const home = mkdtempSync(join(tmpdir(), 'capabilities-person-'));
  const project = join(home, 'code', 'app');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), '# app\n');
  writeConfigs(home, project);
  return { home, project };
}

function writeConfigs(home: string, project: string): void {
  writeFileSync(
    join(home, '.claude.json'),
    `${JSON.stringify(
      {
        numStartups: 12,
        theme: 'dark',
        mcpServers: {
          memory: {
            type: 'stdio',
            command: SERVER_NODE,
            args: [MEMORY],
            env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
          },
          github: {
            type: 'stdio',
            command: SERVER_NODE,
            args: ['--disable-warning=ExperimentalWarning', ECHO],
            env: { API_TOKEN: TOKEN },
          },
        },
        projects: {
          [project]: {
            allowedTools: [],
            mcpServers: {
              files: { type: 'stdio', command: SERVER_NODE, args: [FILESYSTEM, project], env: {} },
            },
          },
        },
      },
      null,
      2,
    )}\n`,
    { mode: 0o600 },
  );
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    [
      '# Codex settings',
      'model = "gpt-5-codex"',
      '',
      '# the knowledge graph, as in Claude Code',
      '[mcp_servers.knowledge]',
      `command = ${JSON.stringify(SERVER_NODE)}`,
      `args = [${JSON.stringify(MEMORY)}]`,
      '',
      '[mcp_servers.knowledge.env]',
      `MEMORY_FILE_PATH = ${JSON.stringify(join(home, 'memory.jsonl'))}`,
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, '.cursor'), { recursive: true });
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    [
      '// Cursor: servers for every workspace',
      '{',
      '  "mcpServers": {',
      `    "everything": { "command": ${JSON.stringify(SERVER_NODE)}, "args": [${JSON.stringify(EVERYTHING)}] }, // the demo server`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, '.claude'), { recursive: true });
}

/**
 * A person's environment: `home`, a PATH of `path` then the system's own folders, the npm
 * settings in `npm` (which registry, where npm keeps its cache and its global installs), no
 * variables of ours or of the harnesses, no keychain, no browser.
 */
export function personEnv(
  home: string,
  path: readonly string[],
  npm: Record<string, string> = {},
): Record<string, string> {
  const kept = ['LANG', 'TERM', 'TZ', 'TMPDIR'];
  const env: Record<string, string> = {};
  for (const name of kept) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    HOME: home,
    PATH: [...path, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    CAPABILITIES_OPEN_PAGES: '0',
    ...npm,
  };
}
