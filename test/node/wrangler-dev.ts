/**
 * `wrangler dev` as a test's process: the Worker on a loopback port with its own env file,
 * persist folder and inspector port, waited for until `/healthz` answers, and stopped (its
 * folder removed) by `stop()`. Shared by the tests that run the hosted hub end to end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort, REPO } from './cli-process.ts';

export interface RunningWorker {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Everything wrangler printed so far, for failure messages. */
  output(): string;
  /** Where it keeps the Worker's state (Durable Objects, KV): a test may look for what must not be there. */
  stateDir: string;
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` with `vars` in its env file (the Worker's secrets and settings). Waits up
 * to `timeoutMs` for `/healthz`: the first start bundles the Worker, slow on a loaded machine.
 */
export async function startWranglerDev(
  vars: Record<string, string>,
  timeoutMs = 120_000,
): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'capabilities-wrangler-'));
  const envFile = join(dir, '.env');
  const stateDir = join(dir, 'state');
  writeFileSync(
    envFile,
    Object.entries(vars)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bin = join(REPO, 'node_modules', '.bin');
  let output = '';
  const child: ChildProcess = spawn(
    join(bin, 'wrangler'),
    [
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(await freePort()),
      '--env-file',
      envFile,
      '--persist-to',
      stateDir,
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
    ],
    {
      cwd: REPO,
      // The project's own Node first: wrangler's shebang runs `node` from PATH.
      env: {
        ...process.env,
        PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
        CI: 'true',
        WRANGLER_SEND_METRICS: 'false',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev exited: ${output}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, output: () => output, stateDir, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer /healthz in ${timeoutMs / 1000} s: ${output}`);
}
