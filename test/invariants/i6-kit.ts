/**
 * Shared setup for I6's kill attacks (test/invariants/i6-kills.test.ts): the counting board's
 * lines, a CLI process started and then SIGKILLed once the board shows a given line, and a resume
 * from a fresh process (test/node/resume-run.ts, as `execute({ resume })` does), retried while the
 * dead attempt's lease still holds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATTEMPT_LEASE_MS } from '../../engine/runs/runs.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { BIN, cliEnv, REPO } from '../node/cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');

/** Every line the counting board wrote to `count` (`started <text>`, `post <text>`). */
export const boardLines = (count: string): string[] =>
  existsSync(count) ? readFileSync(count, 'utf8').trim().split('\n').filter(Boolean) : [];

/** Only the calls the board completed: the `post <text>` lines. */
export const boardPosts = (count: string): string[] =>
  boardLines(count).filter((line) => line.startsWith('post'));

/** Resolves once `check()` is true; polls every `everyMs`, gives up (throws) after `limitMs`. */
export async function until(check: () => boolean, what: string, everyMs = 50, limitMs = 60_000) {
  for (let waited = 0; !check(); waited += everyMs) {
    if (waited > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The CLI with `args` on `home`, SIGKILLed as soon as the board's `count` file holds `line`;
 * resolves with what it printed once it is gone. Throws if it exits on its own first.
 */
export async function killWhenBoardShows(
  home: string,
  args: readonly string[],
  count: string,
  line: string,
): Promise<string> {
  const child = spawn(BIN, args, { cwd: tmpdir(), env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const exited = new Promise((r) => child.once('exit', r));
  let gone = false;
  child.once('exit', () => {
    gone = true;
  });
  // Polled often: the kill should land as close after the line as it can.
  await until(() => gone || boardLines(count).includes(line), `"${line}" on the board`, 5);
  if (gone) throw new Error(`the CLI exited before the board showed "${line}": ${output}`);
  child.kill('SIGKILL');
  await exited;
  return output;
}

export interface Resumed {
  status: string;
  error?: { code: string; message: string } | string;
}

/** `execute({ resume })` from a new process, as the MCP surface calls it (test/node/resume-run.ts). */
export function resumeInNewProcess(home: string, runId: string): Resumed {
  const script = join(REPO, 'test', 'node', 'resume-run.ts');
  const result = spawnSync(NODE, ['--disable-warning=ExperimentalWarning', script, runId], {
    env: cliEnv(home),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Resumed;
}

/** The run as the hub stored it: its status and each journal entry's address and outcome. */
export function storedRun(
  home: string,
  runId: string,
): { status: string | undefined; journal: [string, boolean | undefined][] } {
  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  try {
    const status = hub.store.getRun(runId)?.status;
    const journal = hub.store
      .listJournal(runId)
      .map((e): [string, boolean | undefined] => [e.address, e.outcome?.ok]);
    return { status, journal };
  } finally {
    hub.close();
  }
}

const busy = (resumed: Resumed) =>
  resumed.status === 'refused' && JSON.stringify(resumed).includes('another attempt');

/**
 * A resume once the killed attempt's lease has run out: waits one lease, then resumes again
 * while the hub still says another attempt holds the run (a loaded machine), at most 5 times.
 */
export async function resumeAfterLease(home: string, runId: string): Promise<Resumed> {
  await new Promise((r) => setTimeout(r, ATTEMPT_LEASE_MS));
  let resumed = resumeInNewProcess(home, runId);
  for (let i = 0; i < 5 && busy(resumed); i++) {
    await new Promise((r) => setTimeout(r, ATTEMPT_LEASE_MS / 5));
    resumed = resumeInNewProcess(home, runId);
  }
  return resumed;
}
