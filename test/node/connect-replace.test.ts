/**
 * `hub connect --replace` and its undo, with the real CLI in a temporary HOME: a hub with two
 * stdio sources added by `hub add` (the npm memory server and the counting board fixture), and
 * Claude Code (JSON), Codex (TOML with comments) and Cursor (JSONC with comments) files each
 * holding those two servers (under names of their own) plus one unrelated server. --replace
 * turns off exactly the two and writes `capabilities`; disconnect gives each file its content
 * back (comments included); rollback gives each its bytes back. No hub is an error naming
 * `hub init`; an entry the person set again before disconnect is theirs and stays.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Source } from '../../engine/contracts/sources.ts';
import { plainCopy } from '../../local/connect/config-document.ts';
import { connectHarnesses, disconnectHarnesses } from '../../local/connect/connect.ts';
import { sha256 } from '../../local/connect/snapshots.ts';
import { stdioEntry } from '../../local/setup-snippets.ts';
import { addBoard, BIN, cli, cliEnv, REPO } from './cli-process.ts';
import { type FixtureHome, fixtureHome, harnessEnv } from './connect-fixtures.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const BOARD = join(REPO, 'test', 'fixtures', 'servers', 'counting-server.ts');
const BOARD_ARGS = ['--disable-warning=ExperimentalWarning', BOARD];
const j = JSON.stringify;

/** Claude Code: both servers (memory by a bare `node`), an unrelated remote one, project state. */
const CLAUDE_JSON = `{
  "numStartups": 3,
  "mcpServers": {
    "memory": { "type": "stdio", "command": "node", "args": [${j(MEMORY)}], "env": {} },
    "linear": { "type": "http", "url": "https://mcp.linear.app/mcp" },
    "counter": {
      "type": "stdio",
      "command": ${j(NODE)},
      "args": [${BOARD_ARGS.map((a) => j(a)).join(', ')}],
      "env": { "COUNT_FILE": "/tmp/count" }
    }
  },
  "projects": { "/home/ada/app": { "mcpServers": {} } }
}
`;

const CODEX_TOML = `# Codex settings: keep this comment
model = "o3" # the model I like

# the knowledge graph
[mcp_servers.kg]
command = ${j(NODE)}
args = [${j(MEMORY)}]

# docs, not in the hub
[mcp_servers.docs]
url = "https://docs.example.com/mcp"

# the board
[mcp_servers.board]
command = ${j(NODE)}
args = [${BOARD_ARGS.map((a) => j(a)).join(', ')}]
env = { COUNT_FILE = "/tmp/count" }

# profiles come last
[profiles.fast]
model = "o4-mini"
`;
const CODEX_COMMENTS = [
  '# Codex settings: keep this comment',
  '# the model I like',
  '# the knowledge graph',
  '# docs, not in the hub',
  '# the board',
  '# profiles come last',
];

const CURSOR_JSONC = `// Cursor MCP servers
{
\t"mcpServers": {
\t\t// memory, first
\t\t"memory": { "command": ${j(NODE)}, "args": [${j(MEMORY)}] },
\t\t"sentry": {
\t\t\t"url": "https://mcp.sentry.dev/mcp", // not in the hub
\t\t},
\t\t"board": { "command": ${j(NODE)}, "args": [${BOARD_ARGS.map((a) => j(a)).join(', ')}] },
\t},
}
`;
const CURSOR_COMMENTS = ['// Cursor MCP servers', '// not in the hub'];

/** A hub with the memory server and the board as sources, made once and copied into each HOME. */
let hubTemplate: string;
beforeAll(() => {
  hubTemplate = mkdtempSync(join(tmpdir(), 'capabilities-replace-hub-'));
  expect(cli(hubTemplate, ['hub', 'init']).status).toBe(0);
  const memory = cli(hubTemplate, ['hub', 'add', '--yes', '--namespace', 'memory', '--', NODE, MEMORY]);
  expect(memory.status, memory.stderr).toBe(0);
  const board = addBoard(hubTemplate, join(hubTemplate, 'count'));
  expect(board.status, board.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(hubTemplate, { recursive: true, force: true }));

let fixtures: FixtureHome[] = [];
afterEach(() => {
  for (const fixture of fixtures) fixture.remove();
  fixtures = [];
});

/** A HOME with our three harness files, and the hub (unless `hub` is false). */
function home(hub = true): FixtureHome {
  const f = fixtureHome([]);
  fixtures.push(f);
  writeFileSync(f.files.claudeCode, CLAUDE_JSON, { mode: 0o600 });
  writeFileSync(f.files.codex, CODEX_TOML, { mode: 0o600 });
  writeFileSync(f.files.cursor, CURSOR_JSONC, { mode: 0o644 });
  // fixtureHome made an empty hub: this one is the template's, or none at all.
  rmSync(f.hub, { recursive: true, force: true });
  if (hub) cpSync(hubTemplate, f.hub, { recursive: true });
  return f;
}

function run(f: FixtureHome, args: readonly string[]) {
  const result = spawnSync(BIN, args, {
    env: harnessEnv(f, cliEnv(f.hub)),
    cwd: f.home,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const files = (f: FixtureHome) => [f.files.claudeCode, f.files.codex, f.files.cursor];
const jsonOf = (f: FixtureHome, path: string): Record<string, Record<string, unknown>> =>
  parseJsonc(f.read(path));
const tomlOf = (text: string) => plainCopy(parseToml(text)) as Record<string, Record<string, unknown>>;
const serverNames = (f: FixtureHome) => ({
  claudeCode: Object.keys(jsonOf(f, f.files.claudeCode).mcpServers ?? {}),
  codex: Object.keys(tomlOf(f.read(f.files.codex)).mcp_servers ?? {}),
  cursor: Object.keys(jsonOf(f, f.files.cursor).mcpServers ?? {}),
});

interface Outcome {
  harness: string;
  status: string;
  turnedOff?: string[];
  putBack?: string[];
  message?: string;
}

describe('hub connect --replace', () => {
  it('turns off exactly the entries the hub has, beside the capabilities entry, and says which', () => {
    const f = home();
    const connect = run(f, ['--json', 'hub', 'connect', '--checkout', '--replace', '--yes']);
    expect(connect.status, connect.stderr).toBe(0);
    const outcomes = (JSON.parse(connect.stdout) as { outcomes: Outcome[] }).outcomes;
    expect(outcomes.slice(0, 3).map((o) => [o.harness, o.status, o.turnedOff])).toEqual([
      ['claude-code', 'connected', ['memory', 'counter']],
      ['codex', 'connected', ['kg', 'board']],
      ['cursor', 'connected', ['memory', 'board']],
    ]);
    expect(serverNames(f)).toEqual({
      claudeCode: ['linear', 'capabilities'],
      codex: ['docs', 'capabilities'],
      cursor: ['sentry', 'capabilities'],
    });
    const claude = jsonOf(f, f.files.claudeCode);
    expect(claude.projects).toEqual({ '/home/ada/app': { mcpServers: {} } });
    expect(claude.mcpServers?.capabilities).toMatchObject({ command: BIN });
    for (const comment of CODEX_COMMENTS) expect(f.read(f.files.codex)).toContain(comment);
    expect(f.read(f.files.cursor)).toContain('// not in the hub');

    // The snapshot records each entry turned off, exactly as it was.
    const root = join(f.hub, 'hub', 'snapshots');
    const [name] = readdirSync(root);
    const manifest = JSON.parse(readFileSync(join(root, name ?? '', 'snapshot.json'), 'utf8'));
    expect(manifest.files[1].turnedOff).toEqual([
      { name: 'kg', value: { command: NODE, args: [MEMORY] } },
      { name: 'board', value: { command: NODE, args: BOARD_ARGS, env: { COUNT_FILE: '/tmp/count' } } },
    ]);

    // And the CLI says so in words.
    const again = home();
    const text = run(again, ['hub', 'connect', '--checkout', '--replace', '--yes']);
    expect(text.stdout).toContain('Codex: connected');
    expect(text.stdout).toContain('turned off (the hub has them): kg, board');
  });

  it('then disconnect gives each file its content back: JSON deep-equal, TOML equal with its comments', () => {
    const f = home();
    expect(run(f, ['hub', 'connect', '--checkout', '--replace', '--yes']).status).toBe(0);
    const disconnect = run(f, ['hub', 'disconnect']);
    expect(disconnect.status, disconnect.stderr).toBe(0);
    expect(disconnect.stdout).toContain('put back: kg, board');
    expect(jsonOf(f, f.files.claudeCode)).toEqual(parseJsonc(CLAUDE_JSON));
    expect(jsonOf(f, f.files.cursor)).toEqual(parseJsonc(CURSOR_JSONC));
    expect(tomlOf(f.read(f.files.codex))).toEqual(tomlOf(CODEX_TOML));
    for (const comment of CODEX_COMMENTS) expect(f.read(f.files.codex)).toContain(comment);
    for (const comment of CURSOR_COMMENTS) expect(f.read(f.files.cursor)).toContain(comment);

    // Undone once: a second disconnect has nothing to put back.
    const second = run(f, ['--json', 'hub', 'disconnect']);
    const outcomes = (JSON.parse(second.stdout) as { outcomes: Outcome[] }).outcomes;
    expect(outcomes.slice(0, 3).map((o) => o.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it('then rollback gives each file its bytes back, after which disconnect has nothing to put back', () => {
    const f = home();
    const before = files(f).map((path) => sha256(readFileSync(path)));
    expect(run(f, ['hub', 'connect', '--checkout', '--replace', '--yes']).status).toBe(0);
    expect(files(f).map((path) => sha256(readFileSync(path)))).not.toEqual(before);
    const back = run(f, ['hub', 'rollback']);
    expect(back.status, back.stderr).toBe(0);
    expect(files(f).map((path) => sha256(readFileSync(path)))).toEqual(before);
    // The entries are back already: a disconnect after the rollback has nothing to do.
    const disconnect = run(f, ['--json', 'hub', 'disconnect']);
    const outcomes = (JSON.parse(disconnect.stdout) as { outcomes: Outcome[] }).outcomes;
    expect(outcomes.slice(0, 3).map((o) => [o.status, o.message])).toEqual([
      ['unchanged', undefined],
      ['unchanged', undefined],
      ['unchanged', undefined],
    ]);
    expect(files(f).map((path) => sha256(readFileSync(path)))).toEqual(before);
  });

  it('keeps an entry the person set again before disconnect, and says so', () => {
    const f = home();
    expect(run(f, ['hub', 'connect', '--checkout', '--replace', '--yes']).status).toBe(0);
    const connected = f.read(f.files.cursor);
    const mine = connected.replace(
      '\t\t"sentry"',
      '\t\t"memory": { "command": "/opt/my-memory" },\n\t\t"sentry"',
    );
    writeFileSync(f.files.cursor, mine);
    const disconnect = run(f, ['--json', 'hub', 'disconnect']);
    expect(disconnect.status, disconnect.stderr).toBe(0);
    const cursor = (JSON.parse(disconnect.stdout) as { outcomes: Outcome[] }).outcomes.find(
      (o) => o.harness === 'cursor',
    );
    expect(cursor?.putBack).toEqual(['board']);
    expect(cursor?.message).toContain('"memory" turned off by connect --replace is in the file again');
    expect(jsonOf(f, f.files.cursor).mcpServers).toEqual({
      memory: { command: '/opt/my-memory' },
      sentry: { url: 'https://mcp.sentry.dev/mcp' },
      board: { command: NODE, args: BOARD_ARGS },
    });
  });

  it('a disconnect that could not write a file puts nothing back there, and the next one does', () => {
    const f = home();
    expect(run(f, ['hub', 'connect', '--checkout', '--replace', '--yes']).status).toBe(0);
    // Cursor rewrites its file between disconnect's read and its write.
    const failed = disconnectHarnesses({
      place: f.place,
      hubDir: join(f.hub, 'hub'),
      now: new Date(),
      clients: ['cursor'],
      beforeWrite: (h) => writeFileSync(h.file, `${f.read(h.file)}\n`),
    });
    expect(failed.outcomes.map((o) => o.status)).toEqual(['failed']);
    const again = run(f, ['--json', 'hub', 'disconnect', '--client', 'cursor']);
    expect(again.status, again.stderr).toBe(0);
    const cursor = (JSON.parse(again.stdout) as { outcomes: Outcome[] }).outcomes.find(
      (o) => o.harness === 'cursor',
    );
    expect(cursor?.status).toBe('disconnected');
    expect(cursor?.putBack?.sort()).toEqual(['board', 'memory']);
  });

  it('without a hub is an error naming where it looked and `hub init`, and writes nothing', () => {
    const f = home(false);
    const before = files(f).map((path) => f.read(path));
    const result = run(f, ['hub', 'connect', '--checkout', '--replace', '--yes']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`there is no hub at ${join(f.hub, 'hub')}`);
    expect(result.stderr).toContain('`capabilities hub init`');
    expect(files(f).map((path) => f.read(path))).toEqual(before);
    expect(() => readdirSync(join(f.hub, 'hub'))).toThrow();
  });

  it('matches a remote source by its URL, and leaves every entry when the hub has none of them', async () => {
    const f = home(false);
    const request = {
      place: f.place,
      clients: ['cursor' as const],
      hubDir: join(f.hub, 'hub'),
      now: new Date('2026-12-04T06:00:00Z'),
      stdio: stdioEntry({ command: BIN, args: [] }, f.hub),
      decideReplace: async () => false,
    };
    const sentry: Source = {
      kind: 'mcp-http',
      namespace: 'sentry',
      url: 'https://mcp.sentry.dev/mcp/',
      allowedHosts: ['mcp.sentry.dev'],
      addedAt: 1,
      updatedAt: 1,
    };
    const report = await connectHarnesses({ ...request, replace: [sentry] });
    expect(report.outcomes[0]?.turnedOff).toEqual(['sentry']);
    expect(Object.keys(jsonOf(f, f.files.cursor).mcpServers ?? {})).toEqual([
      'memory',
      'board',
      'capabilities',
    ]);
    disconnectHarnesses(request);
    expect(jsonOf(f, f.files.cursor)).toEqual(parseJsonc(CURSOR_JSONC));

    const none = await connectHarnesses({ ...request, replace: [] });
    expect(none.outcomes[0]?.turnedOff).toBeUndefined();
    expect(Object.keys(jsonOf(f, f.files.cursor).mcpServers ?? {})).toEqual([
      'memory',
      'board',
      'sentry',
      'capabilities',
    ]);
  });
});
