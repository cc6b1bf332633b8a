/** Runs the real CLI (bin/capabilities) as a subprocess against a temporary CAPABILITIES_HOME. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { homePaths } from '../../local/home.ts';
import { initHub } from '../../local/local-hub.ts';

export const REPO = resolve(import.meta.dirname, '../..');
export const BIN = join(REPO, 'bin', 'capabilities');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** An empty folder for CAPABILITIES_HOME: no hub in it yet (only `hub init` makes one). */
export function tempHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'capabilities-home-'));
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** A CAPABILITIES_HOME holding a hub, as `capabilities hub init` leaves it (made in this process). */
export function hubHome(): { home: string; remove(): void } {
  const made = tempHome();
  initHub(homePaths({ CAPABILITIES_HOME: made.home }), Date.now());
  return made;
}

/**
 * Env for the CLI: the test's home, no D-Bus session (a headless machine), nothing else of ours,
 * and no browser opened for an approval page (a test that wants one passes its own `BROWSER`
 * and `CAPABILITIES_OPEN_PAGES=1` in `extra`).
 */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { DBUS_SESSION_BUS_ADDRESS: _dbus, BROWSER: _browser, ...rest } = process.env;
  return { ...rest, CAPABILITIES_HOME: home, CAPABILITIES_OPEN_PAGES: '0', ...extra };
}

export function cli(
  home: string,
  args: readonly string[],
  options: { cwd?: string; bin?: string } = {},
): CliResult {
  const result = spawnSync(options.bin ?? BIN, args, {
    cwd: options.cwd ?? tmpdir(),
    env: cliEnv(home),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The CLI run without blocking this process (a server the test runs in-process must answer it),
 * with `extra` env over cliEnv's; resolves when it exits.
 */
export function runCli(
  home: string,
  args: readonly string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return collected(
    spawn(BIN, args, { cwd: tmpdir(), env: cliEnv(home, extra), stdio: ['ignore', 'pipe', 'pipe'] }),
    'the CLI',
  );
}

/**
 * What a child process printed and how it ended, once it exits; `what` names it if it runs past
 * RUN_CLI_LIMIT_MS and is killed, so the test fails saying so instead of at its own timeout.
 */
export function collected(child: ChildProcess, what: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const killer = setTimeout(() => {
    stderr += `\n[test] ${what} did not exit within ${RUN_CLI_LIMIT_MS} ms and was killed`;
    child.kill('SIGKILL');
  }, RUN_CLI_LIMIT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ status: code ?? -1, stdout, stderr });
    });
  });
}

/** How long `runCli` lets one CLI process run before it kills it. */
const RUN_CLI_LIMIT_MS = 120_000;

/**
 * `hub add --yes` of the counting board fixture (test/fixtures/servers/counting-server.ts) as
 * `board`, counting into `countFile`, from `cwd` (the folder it then runs in).
 */
export function addBoard(home: string, countFile: string, options: { cwd?: string } = {}): CliResult {
  const node = join(REPO, 'node_modules', 'node', 'bin', 'node');
  const board = join(REPO, 'test', 'fixtures', 'servers', 'counting-server.ts');
  return cli(
    home,
    [
      ...['hub', 'add', '--yes', '--namespace', 'board', '--env', `COUNT_FILE=${countFile}`, '--'],
      ...[node, '--disable-warning=ExperimentalWarning', board],
    ],
    options,
  );
}

/**
 * The counting board as a person's own server would be added: `node board.ts`, from a folder of
 * its own (<home>/servers, the SDK reached through a link to this checkout's node_modules), so
 * what a page shows of it holds no path of this machine (the README's screenshots). `node` is
 * the one on PATH (npm test puts this checkout's Node 24 first).
 */
export function addBoardFromFolder(home: string, countFile: string): CliResult {
  const folder = join(home, 'servers');
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(REPO, 'test', 'fixtures', 'servers', 'counting-server.ts'), join(folder, 'board.ts'));
  symlinkSync(join(REPO, 'node_modules'), join(folder, 'node_modules'));
  return cli(
    home,
    [
      'hub',
      'add',
      '--yes',
      '--namespace',
      'board',
      '--env',
      `COUNT_FILE=${countFile}`,
      '--',
      'node',
      'board.ts',
    ],
    { cwd: folder },
  );
}

/**
 * As `npm start` does: `hub init` (idempotent; serving never creates a hub), then
 * `hub serve --http --json`; resolves once it printed where it listens.
 */
export async function startServe(
  home: string,
  args: readonly string[] = ['--port', '0'],
  env: NodeJS.ProcessEnv = {},
) {
  const init = cli(home, ['hub', 'init']);
  if (init.status !== 0) throw new Error(`hub init failed: ${init.stderr}`);
  const child: ChildProcess = spawn(BIN, ['--json', 'hub', 'serve', '--http', ...args], {
    env: cliEnv(home, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const info = await new Promise<{ url: string; hubId: string; tokenFile: string }>((resolveInfo, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      try {
        resolveInfo(JSON.parse(stdout));
      } catch {
        // not a whole document yet
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const stop = () =>
    new Promise<number | null>((done) => {
      if (child.exitCode !== null) return done(child.exitCode);
      child.once('exit', (code) => done(code));
      child.kill('SIGTERM');
    });
  return { ...info, child, stop, stderr: () => stderr };
}

/** A loopback port free at the moment of asking, for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}
