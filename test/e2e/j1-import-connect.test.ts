/**
 * Journey J1 end to end, with nothing standing in: a temporary HOME holding what a person's
 * Claude Code, Codex and Cursor configs look like (real MCP servers from npm, one of them in two
 * harnesses under two names, one plaintext token, a project-scoped server, comments in the
 * TOML and the JSONC), then exactly what the quickstart says: `hub init --import --yes`,
 * `hub connect --yes`. The real `claude mcp list` and `codex mcp list` read the entry; an MCP
 * client started with exactly the command and environment written into Claude Code's entry
 * sees the three tools and runs one `execute` across two imported sources. The hub lives at the
 * default place (`~/.capabilities`), as a person's does. The time from the first command to that
 * answer is printed in the report (the spec's target: under two minutes), never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../node/cli-process.ts';
import { textOf } from '../node/surface-fixture.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const EVERYTHING = join(
  REPO,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const FILESYSTEM = join(
  REPO,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
const ECHO = join(REPO, 'test', 'fixtures', 'servers', 'echo-secret-server.ts');
const CLAUDE = join(REPO, 'node_modules', '.bin', 'claude');
const CODEX = join(REPO, 'node_modules', '.bin', 'codex');
/** The plaintext token in Claude Code's config: it must end up in the secret store and nowhere else. */
const TOKEN = 'ghp_J1plaintextTokenInAHarnessConfig0042';

let home: string;
let project: string;
let env: NodeJS.ProcessEnv;
const timings: [string, number][] = [];

/** The person's environment: their HOME, no hub variables of ours, no keychain, no browser. */
function personEnv(): NodeJS.ProcessEnv {
  const {
    CAPABILITIES_HOME: _home,
    CLAUDE_CONFIG_DIR: _claude,
    CODEX_HOME: _codex,
    DBUS_SESSION_BUS_ADDRESS: _dbus,
    BROWSER: _browser,
    XDG_CONFIG_HOME: _xdg,
    ...rest
  } = process.env;
  return { ...rest, HOME: home, CAPABILITIES_OPEN_PAGES: '0' };
}

function run(command: string, args: readonly string[]) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: home, env, encoding: 'utf8', timeout: 120_000 });
  if (result.error) throw result.error;
  timings.push([
    [command === BIN ? 'capabilities' : command.split('/').pop(), ...args].join(' '),
    performance.now() - started,
  ]);
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

function writeConfigs(): void {
  writeFileSync(
    join(home, '.claude.json'),
    `${JSON.stringify(
      {
        numStartups: 12,
        theme: 'dark',
        mcpServers: {
          memory: {
            type: 'stdio',
            command: NODE,
            args: [MEMORY],
            env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
          },
          github: {
            type: 'stdio',
            command: NODE,
            args: ['--disable-warning=ExperimentalWarning', ECHO],
            env: { API_TOKEN: TOKEN },
          },
        },
        projects: {
          [project]: {
            allowedTools: [],
            mcpServers: { files: { type: 'stdio', command: NODE, args: [FILESYSTEM, project], env: {} } },
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
      `command = ${JSON.stringify(NODE)}`,
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
      `    "everything": { "command": ${JSON.stringify(NODE)}, "args": [${JSON.stringify(EVERYTHING)}] }, // the demo server`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  mkdirSync(join(home, '.claude'), { recursive: true });
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'capabilities-j1-'));
  project = join(home, 'code', 'app');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'README.md'), '# app\n');
  env = personEnv();
  writeConfigs();
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('J1: hub init --import, hub connect, and an agent reaches two imported sources', () => {
  it('imports every server once, connects every harness, and answers an execute across two sources', async () => {
    const started = performance.now();
    const init = run(BIN, ['--json', 'hub', 'init', '--import', '--yes']);
    expect(init.status, init.stderr).toBe(0);
    const imported = JSON.parse(init.stdout) as {
      outcome: { status: string; imported: { namespace: string; from: string[] }[]; failed: unknown[] };
    };
    expect(imported.outcome.status).toBe('imported');
    expect(imported.outcome.failed).toEqual([]);
    const byNamespace = Object.fromEntries(imported.outcome.imported.map((s) => [s.namespace, s.from]));
    // The memory server is in Claude Code and Codex under two names: one source, both origins.
    expect(byNamespace).toEqual({
      memory: ['claude-code:memory', 'codex:knowledge'],
      github: ['claude-code:github'],
      files: ['claude-code:files'],
      everything: ['cursor:everything'],
    });

    const connect = run(BIN, ['hub', 'connect', '--yes']);
    expect(connect.status, connect.stderr).toBe(0);
    expect(connect.stdout).toMatch(/Claude Code: connected/);
    expect(connect.stdout).toMatch(/Codex: connected/);
    expect(connect.stdout).toMatch(/Cursor: connected/);

    const claudeList = run(CLAUDE, ['mcp', 'list']);
    expect(claudeList.stdout).toMatch(/capabilities: .*✔ Connected/);
    const codexList = run(CODEX, ['mcp', 'list']);
    expect(codexList.stdout).toMatch(/capabilities\s/);

    // Exactly what Claude Code starts: the entry's command, arguments and environment.
    const claudeJson = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const entry = claudeJson.mcpServers.capabilities;
    if (!entry) throw new Error('connect wrote no capabilities entry into .claude.json');
    expect(entry.env).toEqual({}); // the hub is at the default place: nothing to pass
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...(env as Record<string, string>), ...entry.env },
      cwd: project,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'j1-agent', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['describe', 'execute', 'search']);
      const answer = await client.callTool({
        name: 'execute',
        arguments: {
          code:
            'const g = await memory.read_graph({}); ' +
            'const e = await everything.echo({ message: "J1" }); ' +
            'return { entities: g.entities.length, echo: e };',
        },
      });
      const seconds = (performance.now() - started) / 1000;
      expect(textOf(answer)).toContain('Echo: J1');
      expect(answer.structuredContent).toMatchObject({
        status: 'completed',
        result: { entities: 0, echo: 'Echo: J1' },
      });
      // Where the time went, for the report: the spec's J1 target is under two minutes.
      console.log(
        [
          `J1: ${seconds.toFixed(1)} s from \`hub init --import\` to the first answer`,
          ...timings.map(([what, ms]) => `  ${(ms / 1000).toFixed(1)} s  ${what}`),
        ].join('\n'),
      );
    } finally {
      await client.close();
    }

    // The plaintext token went to the secret store, and nowhere a model or the store's records can see.
    expect(readFileSync(join(home, '.capabilities', '.env'), 'utf8')).toContain(TOKEN);
    expect(readFileSync(join(home, '.capabilities', 'hub', 'hub.db')).includes(TOKEN)).toBe(false);
    expect(init.stdout + init.stderr + connect.stdout + connect.stderr).not.toContain(TOKEN);
    // The harness files keep what they had: the import only reads them.
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toContain(TOKEN);
  }, 240_000);
});
