/**
 * Opening a page in the person's browser, the way git, gh and Python's webbrowser do: `$BROWSER`
 * when it is set (its first entry, as a command; `%s` stands for the URL, else the URL is
 * appended), otherwise the system opener (`open` on macOS, `start` on Windows, `xdg-open`
 * elsewhere) through the `open` package. The URL goes to that program as one argument, never
 * through a shell, and nowhere else: not to a log, not to the model.
 *
 * A launcher that fails to start, or exits with a failure within a moment, did not open the
 * page; one that exits cleanly or keeps running did (a browser may keep its launcher alive).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { delimiter } from 'node:path';

/** How long a launcher has to fail before the page counts as opened. */
const SETTLE_MS = 3_000;

/** The `$BROWSER` command for `url`: program and arguments; undefined when BROWSER is unset. */
export function browserCommand(
  url: string,
  browser: string | undefined,
): { command: string; args: string[] } | undefined {
  const first = browser?.split(delimiter).find((entry) => entry.trim() !== '');
  if (!first) return undefined;
  const [command, ...rest] = first.trim().split(/\s+/);
  if (!command) return undefined;
  const args = rest.some((arg) => arg.includes('%s'))
    ? rest.map((arg) => arg.replaceAll('%s', url))
    : [...rest, url];
  return { command, args };
}

/** Opens `url` in the person's browser; true when a launcher started and did not fail. */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const chosen = browserCommand(url, env.BROWSER);
  let child: ChildProcess;
  try {
    if (chosen) {
      child = spawn(chosen.command, chosen.args, { stdio: 'ignore', detached: true, env });
    } else {
      const { default: open } = await import('open');
      child = await open(url);
    }
  } catch {
    return false;
  }
  return settled(child);
}

/** True unless the launcher errs or exits with a failure within SETTLE_MS. */
function settled(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, SETTLE_MS);
    timer.unref();
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
