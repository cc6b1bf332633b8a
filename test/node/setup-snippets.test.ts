/**
 * The setup snippets `hub serve --http` prints (spec: For agents, Connect an agent to the hub):
 * each names this checkout's absolute CLI, the HTTP line names the port and the token's file,
 * and the token's value appears nowhere; checked on the module and on a real serve's output.
 * Every snippet a real serve prints is then used exactly as printed, with the real CLI where one
 * exists (Claude Code, Codex), and must reach the hub that serve serves: the Claude line is run
 * by a shell; the Codex lines are a temporary HOME's ~/.codex/config.toml, read back by
 * `codex mcp list`/`get`; the Cursor JSON's command, args and env are launched by the official SDK
 * client; the HTTP line's URL answers with the bearer from the file it names.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launcher } from '../../local/package-files.ts';
import { type StdioEntry, setupSnippets } from '../../local/setup-snippets.ts';
import { addBoard, BIN, cli, cliEnv, hubHome, REPO } from './cli-process.ts';
import { textOf } from './surface-fixture.ts';

const STDIO = ['hub', 'serve', '--stdio', '--profile', 'default'];
const target = {
  launch: { command: '/opt/capabilities/bin/capabilities', args: [] },
  url: 'http://127.0.0.1:4790',
  tokenFile: '/home/ada/.capabilities/hub/http-token',
};

/** The lines after a `title` line, up to the next blank line, exactly as printed (indent and all). */
function printed(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  expect(start, `no "${title}" in:\n${text}`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

/** The text after a `title` line, up to the next blank line, without the indent. */
function section(text: string, title: string): string {
  return printed(text, title)
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}

describe('setupSnippets', () => {
  it('gives Claude Code, Codex and Cursor the stdio command by absolute path, and the HTTP URL with the token file', () => {
    const text = setupSnippets(target);
    expect(section(text, 'Claude Code:')).toBe(
      `claude mcp add --scope user capabilities -- ${target.launch.command} ${STDIO.join(' ')}`,
    );
    expect(section(text, 'Codex, in ~/.codex/config.toml:')).toBe(
      [
        '[mcp_servers.capabilities]',
        `command = "${target.launch.command}"`,
        'args = ["hub", "serve", "--stdio", "--profile", "default"]',
      ].join('\n'),
    );
    expect(JSON.parse(section(text, 'Cursor, in ~/.cursor/mcp.json:'))).toEqual({
      mcpServers: { capabilities: { command: target.launch.command, args: STDIO } },
    });
    expect(text).toContain(
      'Over HTTP: http://127.0.0.1:4790/mcp with the header ' +
        '`Authorization: Bearer <the token in /home/ada/.capabilities/hub/http-token>`.',
    );
    expect(text).not.toContain('CAPABILITIES_HOME');
  });

  it('passes a CAPABILITIES_HOME on to every stdio entry, quoted for the shell when it needs to be', () => {
    const home = "/tmp/Ada's hubs";
    const text = setupSnippets({ ...target, home });
    expect(section(text, 'Claude Code:')).toBe(
      `claude mcp add --scope user capabilities -e 'CAPABILITIES_HOME=/tmp/Ada'\\''s hubs' -- ${target.launch.command} ${STDIO.join(' ')}`,
    );
    expect(section(text, 'Codex, in ~/.codex/config.toml:')).toContain(
      `env = { CAPABILITIES_HOME = "/tmp/Ada's hubs" }`,
    );
    expect(JSON.parse(section(text, 'Cursor, in ~/.cursor/mcp.json:'))).toEqual({
      mcpServers: {
        capabilities: { command: target.launch.command, args: STDIO, env: { CAPABILITIES_HOME: home } },
      },
    });
  });

  it("names this checkout's launcher", () => {
    expect(launcher()).toEqual({ kind: 'checkout', command: BIN, args: [], checkout: `${REPO}/` });
  });
});

describe('hub serve --http', () => {
  let home: string;
  let remove: () => void;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    ({ home, remove } = hubHome());
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    remove();
  });

  /** `hub serve --http --port 0` in text mode, once it printed its snippets (the hub exists). */
  async function serveText(): Promise<string> {
    child = spawn(BIN, ['hub', 'serve', '--http', '--port', '0'], {
      env: cliEnv(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Promise<string>((resolve, reject) => {
      let text = '';
      child?.stdout?.on('data', (chunk) => {
        text += chunk;
        if (/^Over HTTP: .*\n/m.test(text)) resolve(text);
      });
      child?.once('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
    });
  }

  it('prints the snippets after its listening line: the absolute CLI, the port, the token file, never the token', async () => {
    expect(cli(home, ['hub', 'init']).status).toBe(0);
    const stdout = await serveText();
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+) /.exec(stdout)?.[1];
    expect(port).toMatch(/^\d+$/);
    const tokenFile = join(home, 'hub', 'http-token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);

    expect(stdout.split('\n')[0]).toContain('listening on');
    const claudeLine = stdout.split('\n').find((l) => l.trim().startsWith('claude mcp add')) ?? '';
    expect(claudeLine.trim()).toBe(
      `claude mcp add --scope user capabilities -e CAPABILITIES_HOME=${home} -- ${BIN} ${STDIO.join(' ')}`,
    );
    // Run exactly as printed, by a shell, with the real Claude Code in a HOME of its own: it
    // takes the line, and the entry it makes starts this hub ("Connected").
    const claudeHome = join(home, 'claude-home');
    mkdirSync(claudeHome);
    const claudeEnv: NodeJS.ProcessEnv = {
      ...cliEnv(home),
      HOME: claudeHome,
      PATH: `${join(REPO, 'node_modules', '.bin')}:${process.env.PATH}`,
    };
    delete claudeEnv.CAPABILITIES_HOME;
    // A CLAUDE_CONFIG_DIR of the machine's would send Claude Code's config outside claudeHome.
    delete claudeEnv.CLAUDE_CONFIG_DIR;
    const added = spawnSync('sh', ['-c', claudeLine.trim()], {
      env: claudeEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(added.status, added.stderr).toBe(0);
    const got = spawnSync('claude', ['mcp', 'get', 'capabilities'], {
      env: claudeEnv,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(got.stdout).toContain('Connected');
    expect(got.stdout).toContain(`CAPABILITIES_HOME=${home}`);
    expect(stdout).toContain(`command = "${BIN}"`);
    expect(stdout).toContain(`"command": "${BIN}"`);
    expect(stdout).toContain(`Over HTTP: http://127.0.0.1:${port}/mcp`);
    expect(stdout).toContain(`<the token in ${tokenFile}>`);
    expect(stdout).not.toContain(token);
  });

  /**
   * The official SDK client on a stdio entry as a harness launches it: the entry's command, args
   * and env over the SDK's bare default environment (no CAPABILITIES_HOME of the test's).
   */
  async function launch(entry: StdioEntry, harnessHome: string): Promise<Client> {
    const client = new Client({ name: 'snippet', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: { ...getDefaultEnvironment(), HOME: harnessHome, ...entry.env },
        stderr: 'pipe',
      }),
    );
    return client;
  }

  /** The client reaches this test's hub: the three tools, and the board source added to it first. */
  async function expectThisHub(client: Client): Promise<void> {
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
      const listed = await client.callTool({ name: 'search', arguments: { query: '' } });
      expect(textOf(listed)).toMatch(/^board {2}\d+ tools/m);
    } finally {
      await client.close();
    }
  }

  it('every snippet, used exactly as printed, reaches the hub this serve serves', async () => {
    expect(cli(home, ['hub', 'init']).status).toBe(0);
    expect(addBoard(home, join(home, 'count.txt')).status).toBe(0);
    const { hubId } = JSON.parse(readFileSync(join(home, 'hub', 'hub.json'), 'utf8')) as { hubId: string };
    const stdout = await serveText();
    expect(stdout.split('\n')[0]).toContain(`capabilities hub ${hubId} listening on`);

    // Codex: the printed lines are ~/.codex/config.toml in a HOME of its own; the real Codex reads them.
    const codexHome = join(home, 'codex-home');
    mkdirSync(join(codexHome, '.codex'), { recursive: true });
    writeFileSync(
      join(codexHome, '.codex', 'config.toml'),
      `${printed(stdout, 'Codex, in ~/.codex/config.toml:').join('\n')}\n`,
    );
    const { CAPABILITIES_HOME: _home, CODEX_HOME: _codex, ...rest } = cliEnv(home);
    const codexEnv: NodeJS.ProcessEnv = { ...rest, HOME: codexHome };
    const codex = (args: string[]) =>
      spawnSync(join(REPO, 'node_modules', '.bin', 'codex'), args, {
        env: codexEnv,
        encoding: 'utf8',
        timeout: 60_000,
      });
    const listed = codex(['mcp', 'list']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /^capabilities +\S+ +hub serve --stdio --profile default +CAPABILITIES_HOME=/m,
    );
    const got = codex(['mcp', 'get', 'capabilities', '--json']);
    expect(got.status, got.stderr).toBe(0);
    const codexEntry = JSON.parse(got.stdout) as {
      enabled: boolean;
      transport: StdioEntry & { type: string };
    };
    expect(codexEntry.enabled).toBe(true);
    expect(codexEntry.transport).toMatchObject({
      type: 'stdio',
      command: BIN,
      args: STDIO,
      env: { CAPABILITIES_HOME: home },
    });
    await expectThisHub(await launch(codexEntry.transport, codexHome));

    // Cursor: the printed JSON, parsed, and its entry launched as Cursor would.
    const cursor = JSON.parse(section(stdout, 'Cursor, in ~/.cursor/mcp.json:')) as {
      mcpServers: { capabilities: StdioEntry };
    };
    await expectThisHub(await launch(cursor.mcpServers.capabilities, join(home, 'cursor-home')));

    // HTTP: the printed URL, with the bearer token from the file the line names.
    const http = /^Over HTTP: (\S+) with the header `Authorization: Bearer <the token in (.+)>`\.$/m.exec(
      stdout,
    );
    expect(http, stdout).not.toBeNull();
    const [, url = '', tokenFile = ''] = http ?? [];
    const token = readFileSync(tokenFile, 'utf8').trim();
    const client = new Client({ name: 'snippet', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    await expectThisHub(client);
    const health = (await (await fetch(new URL('/healthz', url))).json()) as { hubId: string };
    expect(health.hubId).toBe(hubId);
  }, 180_000);
});
