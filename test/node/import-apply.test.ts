/**
 * `hub import` for real, through the CLI in a temporary HOME: what is consented to and stored,
 * and every bad input the issue names: a harness file that does not parse (named, with its line,
 * the others still import), a server whose command does not exist (added without tools to fix,
 * or left out with --skip-failing), a `${VAR}` that is set or unset, a token inside a URL, no
 * person to ask, no hub, and a plaintext token that must reach the secret store and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const ECHO = join(REPO, 'test', 'fixtures', 'servers', 'echo-secret-server.ts');
const TOKEN = 'ghp_importApplyPlaintextToken0000000042';

let homes: string[] = [];
afterEach(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
  homes = [];
});

interface Person {
  home: string;
  hub: string;
  run(args: readonly string[], extra?: NodeJS.ProcessEnv): { status: number; stdout: string; stderr: string };
}

function person(claude: object | string, codex?: string): Person {
  const home = mkdtempSync(join(tmpdir(), 'capabilities-import-'));
  homes.push(home);
  writeFileSync(
    join(home, '.claude.json'),
    typeof claude === 'string' ? claude : JSON.stringify(claude, null, 2),
  );
  if (codex !== undefined) {
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), codex);
  }
  const {
    DBUS_SESSION_BUS_ADDRESS: _d,
    BROWSER: _b,
    CODEX_HOME: _c,
    CLAUDE_CONFIG_DIR: _cc,
    ...rest
  } = process.env;
  const hub = join(home, '.capabilities');
  return {
    home,
    hub,
    run: (args, extra = {}) => {
      const result = spawnSync(BIN, args, {
        cwd: home,
        env: { ...rest, HOME: home, CAPABILITIES_HOME: hub, CAPABILITIES_OPEN_PAGES: '0', ...extra },
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (result.error) throw result.error;
      return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

const memory = { command: NODE, args: [MEMORY] };
const echo = (token: string) => ({
  command: NODE,
  args: ['--disable-warning=ExperimentalWarning', ECHO],
  env: { API_TOKEN: token },
});

/** `${NAME}`, as Claude Code writes a reference to the environment. */
const reference = (name: string): string => `\${${name}}`;

interface Outcome {
  status: string;
  imported: { namespace: string; notes: string[] }[];
  failed: { namespace: string; error: string; stored: boolean }[];
  skipped: { namespace: string; reason: string }[];
}
const outcomeOf = (stdout: string): Outcome => (JSON.parse(stdout) as { outcome: Outcome }).outcome;

describe('hub import', () => {
  it('keeps a plaintext token in the secret store only, and the connection delivers it to the server', () => {
    const p = person({ mcpServers: { github: echo(TOKEN) } });
    const init = p.run(['--json', 'hub', 'init', '--import', '--yes']);
    expect(init.status, init.stderr).toBe(0);
    expect(outcomeOf(init.stdout).imported.map((s) => s.namespace)).toEqual(['github']);
    expect(init.stderr).toContain('keep in its secret store: API_TOKEN (github, env)');
    expect(init.stdout + init.stderr).not.toContain(TOKEN);
    expect(readFileSync(join(p.hub, '.env'), 'utf8')).toContain(TOKEN);
    expect(readFileSync(join(p.hub, 'hub', 'hub.db')).includes(TOKEN)).toBe(false);
    // The stored connection is what the server gets: it echoes its token, which comes back scrubbed.
    const call = p.run(['--json', 'hub', 'call', 'github.whoami', '--yes']);
    expect(call.stdout).not.toContain(TOKEN);
    const connections = p.run(['hub', 'connections', 'github']);
    expect(connections.stdout).toContain('github/default  env API_TOKEN');
  });

  it('resolves a reference to the environment with consent, and says which one was unset', () => {
    const p = person({
      mcpServers: {
        github: echo(reference('J1_GITHUB_TOKEN')),
        other: { ...echo(reference('J1_UNSET_TOKEN')), args: [...echo('').args, '--other'] },
      },
    });
    const init = p.run(['--json', 'hub', 'init', '--import', '--yes'], { J1_GITHUB_TOKEN: TOKEN });
    expect(init.status, init.stderr).toBe(0);
    expect(init.stderr).toContain(
      'read from your environment: $J1_GITHUB_TOKEN (github), $J1_UNSET_TOKEN (other)',
    );
    const outcome = outcomeOf(init.stdout);
    expect(outcome.imported.find((s) => s.namespace === 'other')?.notes.join('\n')).toContain(
      '$J1_UNSET_TOKEN (for API_TOKEN) is not set here',
    );
    expect(readFileSync(join(p.hub, '.env'), 'utf8')).toContain(TOKEN);
    expect(init.stdout + init.stderr).not.toContain(TOKEN);
  });

  it('names a file that does not parse with its line, and imports the other harnesses', () => {
    const p = person(
      '{\n  "mcpServers": {\n    "memory": oops\n  }\n}\n',
      `[mcp_servers.memory]\ncommand = "${NODE}"\nargs = ["${MEMORY}"]\n`,
    );
    const init = p.run(['--json', 'hub', 'init', '--import', '--yes']);
    // The other harnesses are imported; the file that could not be read fails the command (#40).
    expect(init.status, init.stderr).toBe(1);
    const found = JSON.parse(init.stdout) as {
      harnesses: { harness: string; errors: { file: string; line?: number }[] }[];
    };
    const claude = found.harnesses.find((h) => h.harness === 'claude-code');
    expect(claude?.errors[0]).toMatchObject({ file: join(p.home, '.claude.json'), line: 3 });
    expect(outcomeOf(init.stdout).imported.map((s) => s.namespace)).toEqual(['memory']);
  });

  it('adds a server that does not start without tools, with what it said, or leaves it out with --skip-failing', () => {
    const claude = { mcpServers: { memory, gone: { command: '/nonexistent/bin/mcp-gone', args: [] } } };
    const p = person(claude);
    const init = p.run(['--json', 'hub', 'init', '--import', '--yes']);
    expect(init.status, init.stderr).toBe(0);
    const outcome = outcomeOf(init.stdout);
    expect(outcome.imported.map((s) => s.namespace)).toEqual(['memory']);
    expect(outcome.failed).toEqual([
      expect.objectContaining({
        namespace: 'gone',
        stored: true,
        error: expect.stringContaining('was not found'),
      }),
    ]);
    const list = p.run(['hub', 'list']);
    expect(list.stdout).toContain('gone  mcp-stdio  /nonexistent/bin/mcp-gone');
    expect(list.stdout).toContain(
      'no tool list yet: fix what stops it, then `capabilities hub refresh gone`',
    );
    const refresh = p.run(['hub', 'refresh', 'gone']);
    expect(refresh.status).toBe(1);
    expect(refresh.stderr).toContain('was not found on this machine');

    const q = person(claude);
    const skipping = q.run(['--json', 'hub', 'init', '--import', '--yes', '--skip-failing']);
    expect(skipping.status, skipping.stderr).toBe(0);
    expect(outcomeOf(skipping.stdout).failed).toEqual([
      expect.objectContaining({ namespace: 'gone', stored: false }),
    ]);
    expect(q.run(['hub', 'list']).stdout).not.toContain('gone');
  });

  it('leaves out a server whose token is written into its URL, saying what to do, and stores no part of it', () => {
    const secretUrl = 'https://mcp.example.test/mcp?api_key=sk-live-abcdefghijklmnop1234';
    const p = person({ mcpServers: { memory, remote: { type: 'http', url: secretUrl } } });
    const init = p.run(['--json', 'hub', 'init', '--import', '--yes']);
    expect(init.status, init.stderr).toBe(0);
    expect(outcomeOf(init.stdout).skipped).toEqual([
      { namespace: 'remote', reason: expect.stringContaining('its token is written into its URL') },
    ]);
    expect(init.stdout + init.stderr).not.toContain('sk-live-abcdefghijklmnop1234');
    expect(readFileSync(join(p.hub, 'hub', 'hub.db')).includes('sk-live-abcdefghijklmnop1234')).toBe(false);
  });

  it('asks a person: without a terminal and without --yes nothing runs and nothing is added', () => {
    const p = person({ mcpServers: { memory } });
    expect(p.run(['hub', 'init']).status).toBe(0);
    const refused = p.run(['hub', 'import']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('pass --yes to consent to exactly that');
    expect(p.run(['--json', 'hub', 'list']).stdout).toContain('"sources": []');
  });

  it('never creates a hub: import without one says to run init --import; --yes without --import is refused', () => {
    const p = person({ mcpServers: { memory } });
    const missing = p.run(['hub', 'import', '--yes']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('capabilities hub init --import');
    expect(existsSync(p.hub)).toBe(false);
    const stray = p.run(['hub', 'init', '--yes']);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('go with --import');
    expect(existsSync(p.hub)).toBe(false);
  });

  it('imports into a hub that has the namespace already under a new one, skips its own entry and what it has', () => {
    const p = person({ mcpServers: { memory } });
    expect(p.run(['hub', 'init', '--import', '--yes']).status).toBe(0);
    writeFileSync(
      join(p.home, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          memory,
          capabilities: { type: 'stdio', command: BIN, args: ['hub', 'serve', '--stdio'], env: {} },
        },
      }),
    );
    // Codex lists another memory server under the same name.
    mkdirSync(join(p.home, '.codex'));
    writeFileSync(
      join(p.home, '.codex', 'config.toml'),
      `[mcp_servers.memory]\ncommand = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(MEMORY)}, "--second"]\n`,
    );
    const again = p.run(['--json', 'hub', 'import', '--yes']);
    expect(again.status, again.stderr).toBe(0);
    expect(outcomeOf(again.stdout).imported.map((s) => s.namespace)).toEqual(['memory2']);
    expect(again.stderr).toContain('it runs this hub');
    // The server it imported before is not imported twice.
    expect(again.stderr).toContain('already in the hub as memory: claude-code:memory');
    const third = p.run(['--json', 'hub', 'import', '--yes']);
    expect(outcomeOf(third.stdout)).toMatchObject({ status: 'nothing', imported: [] });
  });
});
