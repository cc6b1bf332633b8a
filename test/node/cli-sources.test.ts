/**
 * The source and credential commands as a person runs them: bin/capabilities in a subprocess,
 * a real stdio server from npm, the secret piped on standard input (never an argument).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocalStore } from '../../local/open-store.ts';
import { addBoard, BIN, cli, cliEnv, hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

function withStdin(args: string[], input: string) {
  const result = spawnSync(BIN, args, { env: cliEnv(home), input, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('hub add, list, connections, auth, remove', () => {
  it('adds a stdio server with --yes, lists it, and removes it', () => {
    const added = cli(home, ['--json', 'hub', 'add', '--yes', '--', NODE, MEMORY]);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      added: true,
      namespace: 'memory',
      tools: 9,
      policies: { allow: 3, ask: 6, deny: 0 },
    });
    expect(added.stderr).toContain(`Starting \`${NODE} ${MEMORY}\``);

    const list = cli(home, ['hub', 'list']);
    expect(list.stdout).toContain('memory  mcp-stdio');
    expect(list.stdout).toContain('9 tools');

    expect(cli(home, ['hub', 'remove', 'memory']).status).toBe(2);
    const removed = cli(home, ['hub', 'remove', '--yes', 'memory']);
    expect(removed.stdout).toContain('Removed "memory"');
    expect(cli(home, ['hub', 'list']).stdout).toContain('No sources yet');
    // In the source's history, which outlives it, as the OS user's (as the dashboard shows it).
    const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
    try {
      expect(local.store.listSourceEvents({ namespace: 'memory' }).map((e) => [e.who, e.change])).toEqual([
        [userInfo().username, { kind: 'removed', tools: 9, connections: 0, rules: 9 }],
      ]);
    } finally {
      local.close();
    }
  });

  it('a relative command line runs where it was added, whichever directory starts it later', () => {
    const servers = join(REPO, 'test', 'fixtures', 'servers');
    const added = cli(
      home,
      [
        'hub',
        'add',
        '--yes',
        '--namespace',
        'board',
        '--env',
        `COUNT_FILE=${join(home, 'count.txt')}`,
        '--',
        NODE,
        './counting-server.ts',
      ],
      { cwd: servers },
    );
    expect(added.status, added.stderr).toBe(0);
    const called = cli(home, ['--json', 'hub', 'call', 'board.list_posts', '{}'], { cwd: home });
    expect(called.status, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ status: 'completed', result: { posts: 0 } });
  });

  it('a source whose folder is gone says so, and the model is not told the folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'capabilities-folder-'));
    const added = addBoard(home, join(home, 'count.txt'), { cwd: folder });
    expect(added.status, added.stderr).toBe(0);
    rmSync(folder, { recursive: true, force: true });
    const called = cli(home, ['--json', 'hub', 'call', 'board.list_posts', '{}']);
    const envelope = JSON.parse(called.stdout) as { status: string; error?: { message: string } };
    expect(envelope.status).toBe('failed');
    expect(envelope.error?.message).toContain('no longer exists');
    expect(envelope.error?.message).not.toContain(folder);
  });

  it('--env gives a stdio server its settings, and is refused for an HTTP server or without KEY=VALUE', () => {
    const file = join(home, 'memory.jsonl');
    const added = cli(home, [
      '--json',
      'hub',
      'add',
      '--yes',
      '--env',
      `MEMORY_FILE_PATH=${file}`,
      '--',
      NODE,
      MEMORY,
    ]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stderr).toContain(`Starting \`${NODE} ${MEMORY}\``);
    expect(
      cli(home, ['hub', 'add', '--yes', '--env', 'X=1', 'https://mcp.example.com/mcp']).stderr,
    ).toContain('--env is for a stdio server');
    expect(cli(home, ['hub', 'add', '--yes', '--env', 'nope', '--', NODE, MEMORY]).stderr).toContain(
      '--env takes KEY=VALUE',
    );
  });

  it('without --yes and without a terminal, asks for consent instead of running the command', () => {
    const result = cli(home, ['hub', 'add', '--', NODE, MEMORY]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('pass --yes to consent to that exact command');
    expect(cli(home, ['--json', 'hub', 'list']).stdout).toContain('"sources": []');
  });

  it('auth takes the secret on stdin, stores a reference, and falls back to a mode-600 file, saying so', () => {
    cli(home, ['hub', 'add', '--yes', '--', NODE, MEMORY]);
    const secret = 'memory-token-do-not-leak';
    const auth = withStdin(
      ['hub', 'auth', 'memory', '--connection', 'work', '--env', 'MEMORY_TOKEN'],
      `${secret}\n`,
    );
    expect(auth.status, auth.stderr).toBe(0);
    expect(auth.stdout).toContain('Stored the secret for memory/work (the default connection).');
    expect(auth.stderr).toContain(`No OS keychain: no D-Bus session`);
    expect(auth.stderr).toContain(`${join(home, '.env')} (mode 600)`);
    const envFile = join(home, '.env');
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(envFile, 'utf8')).toContain(`MEMORY__WORK__MEMORY_TOKEN="${secret}"`);

    const connections = cli(home, ['hub', 'connections', 'memory']);
    expect(connections.stdout).toContain('* memory/work  env MEMORY_TOKEN');
    expect(connections.stdout + connections.stderr).not.toContain(secret);
    expect(readFileSync(join(home, 'hub', 'hub.db')).includes(secret)).toBe(false);
  });

  it('auth refuses a stdio source without --env, and an unknown source', () => {
    cli(home, ['hub', 'add', '--yes', '--', NODE, MEMORY]);
    expect(withStdin(['hub', 'auth', 'memory'], 'x').stderr).toContain('--env VAR');
    expect(withStdin(['hub', 'auth', 'nope', '--env', 'X'], 'x').stderr).toContain('no source "nope"');
  });

  it('auth --oauth on a stdio source says OAuth sign-in is for HTTP sources, and stores nothing', () => {
    cli(home, ['hub', 'add', '--yes', '--', NODE, MEMORY]);
    for (const args of [['--oauth'], ['--oauth', '--env', 'MEMORY_TOKEN']]) {
      const auth = withStdin(['hub', 'auth', 'memory', ...args], 'memory-token-0123456789\n');
      expect(auth.status).toBe(2);
      expect(auth.stderr).toContain(
        '"memory" is a stdio server, and OAuth sign-in is for HTTP sources; nothing was stored. Give it its secret as an environment variable with --env VAR',
      );
    }
    expect(JSON.parse(cli(home, ['--json', 'hub', 'connections', 'memory']).stdout).connections).toEqual([]);
  });

  it('refresh reports no changes and review has nothing to decide', () => {
    cli(home, ['hub', 'add', '--yes', '--', NODE, MEMORY]);
    expect(cli(home, ['hub', 'refresh']).stdout).toContain('memory: no changes');
    expect(cli(home, ['hub', 'review']).stdout).toContain('Nothing to review');
  });
});
