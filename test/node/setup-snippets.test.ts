/**
 * The setup snippets `hub serve --http` prints (spec: For agents, Connect an agent to the hub):
 * each names this checkout's absolute CLI, the HTTP line names the port and the token's file,
 * and the token's value appears nowhere; checked on the module and on a real serve's output.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKOUT_BIN, setupSnippets } from '../../local/setup-snippets.ts';
import { BIN, cliEnv, REPO, tempHome } from './cli-process.ts';

const STDIO = ['hub', 'serve', '--stdio', '--profile', 'default'];
const target = {
  bin: '/opt/capabilities/bin/capabilities',
  url: 'http://127.0.0.1:4790',
  tokenFile: '/home/ada/.capabilities/hub/http-token',
};

/** The text after a `title` line, up to the next blank line, without the indent. */
function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  expect(start, `no "${title}" in:\n${text}`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', start);
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}

describe('setupSnippets', () => {
  it('gives Claude Code, Codex and Cursor the stdio command by absolute path, and the HTTP URL with the token file', () => {
    const text = setupSnippets(target);
    expect(section(text, 'Claude Code:')).toBe(
      `claude mcp add --scope user capabilities -- ${target.bin} ${STDIO.join(' ')}`,
    );
    expect(section(text, 'Codex, in ~/.codex/config.toml:')).toBe(
      [
        '[mcp_servers.capabilities]',
        `command = "${target.bin}"`,
        'args = ["hub", "serve", "--stdio", "--profile", "default"]',
      ].join('\n'),
    );
    expect(JSON.parse(section(text, 'Cursor, in ~/.cursor/mcp.json:'))).toEqual({
      mcpServers: { capabilities: { command: target.bin, args: STDIO } },
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
      `claude mcp add --scope user capabilities -e 'CAPABILITIES_HOME=/tmp/Ada'\\''s hubs' -- ${target.bin} ${STDIO.join(' ')}`,
    );
    expect(section(text, 'Codex, in ~/.codex/config.toml:')).toContain(
      `env = { CAPABILITIES_HOME = "/tmp/Ada's hubs" }`,
    );
    expect(JSON.parse(section(text, 'Cursor, in ~/.cursor/mcp.json:'))).toEqual({
      mcpServers: { capabilities: { command: target.bin, args: STDIO, env: { CAPABILITIES_HOME: home } } },
    });
  });

  it("names this checkout's launcher", () => {
    expect(CHECKOUT_BIN).toBe(BIN);
  });
});

describe('hub serve --http', () => {
  let home: string;
  let remove: () => void;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    ({ home, remove } = tempHome());
  });
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    remove();
  });

  it('prints the snippets after its listening line: the absolute CLI, the port, the token file, never the token', async () => {
    child = spawn(BIN, ['hub', 'serve', '--http', '--port', '0'], {
      env: cliEnv(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = await new Promise<string>((resolve, reject) => {
      let text = '';
      child?.stdout?.on('data', (chunk) => {
        text += chunk;
        if (/^Over HTTP: .*\n/m.test(text)) resolve(text);
      });
      child?.once('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
    });
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
});
