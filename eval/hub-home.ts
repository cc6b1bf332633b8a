/**
 * The eval's hub: a temporary CAPABILITIES_HOME made with the real CLI (`hub init`, then
 * `hub add --yes --namespace <ns>` for every service stand-in, then a direct-mode profile of
 * everything), and the world folder the stand-ins keep their state in. Removed when the eval ends.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
const BIN = join(REPO, 'bin', 'capabilities');
export const SERVER = join(REPO, 'eval', 'fixtures', 'server.ts');
/** The profile that shows every tool in direct mode. */
export const DIRECT_PROFILE = 'direct';

export interface EvalHub {
  bin: string;
  home: string;
  /** The world's folder (EVAL_STATE_DIR of every stand-in). */
  stateDir: string;
  /** The CLI's environment: this home, no D-Bus session, no browser. */
  env: Record<string, string>;
  remove(): void;
}

function run(bin: string, args: readonly string[], env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`capabilities ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/** A new hub with every namespace in `namespaces` added as a stdio source of the stand-in server. */
export async function createEvalHub(namespaces: readonly string[]): Promise<EvalHub> {
  const root = mkdtempSync(join(tmpdir(), 'capabilities-eval-'));
  const home = join(root, 'home');
  const stateDir = join(root, 'world');
  mkdirSync(stateDir);
  const { DBUS_SESSION_BUS_ADDRESS: _dbus, BROWSER: _browser, ...rest } = process.env;
  const env = Object.fromEntries(
    Object.entries({ ...rest, CAPABILITIES_HOME: home, CAPABILITIES_OPEN_PAGES: '0' }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const hub: EvalHub = {
    bin: BIN,
    home,
    stateDir,
    env,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  try {
    await run(BIN, ['hub', 'init'], env);
    for (const namespace of namespaces) {
      await run(
        BIN,
        [
          'hub',
          'add',
          '--yes',
          '--namespace',
          namespace,
          '--env',
          `EVAL_STATE_DIR=${stateDir}`,
          '--',
          process.execPath,
          SERVER,
          namespace,
        ],
        env,
      );
    }
    await run(BIN, ['hub', 'profiles', 'create', DIRECT_PROFILE, '--mode', 'direct'], env);
    return hub;
  } catch (error) {
    hub.remove();
    throw error;
  }
}
