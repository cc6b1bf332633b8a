/**
 * The person and the agent around an OAuth sign-in, for the CLI tests of sources that sign in:
 * the person's browser (a script `$BROWSER` runs, which writes down the address it is given), and
 * `execute({ resume })` in a fresh process, as the MCP surface does it (test/node/resume-run.ts).
 * Both are spawned without blocking: the stand-in servers answer from the test's own process.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliEnv, collected, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');

/** The person's browser: a script that writes down the address it was given. */
export function browser(at: string): {
  env: NodeJS.ProcessEnv;
  opened(run: Promise<unknown>): Promise<string>;
} {
  const file = join(at, 'opened-url');
  const script = join(at, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > '${file}'\n`);
  chmodSync(script, 0o700);
  return {
    env: { BROWSER: script, CAPABILITIES_OPEN_PAGES: '1' },
    async opened(run) {
      let done = false;
      void run.finally(() => {
        done = true;
      });
      while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
        if (done) throw new Error('the command ended before it opened a browser');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = readFileSync(file, 'utf8');
      rmSync(file);
      return url;
    },
  };
}

/** `execute({ resume })` of `runId` in a fresh process; its outcome. */
export async function resume(at: string, runId: string): Promise<{ status: string }> {
  const child = spawn(
    NODE,
    ['--disable-warning=ExperimentalWarning', join(REPO, 'test', 'node', 'resume-run.ts'), runId],
    { env: cliEnv(at), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const run = await collected(child, 'the resumed run');
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}
