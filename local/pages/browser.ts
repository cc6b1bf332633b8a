/**
 * Opening a page in the person's browser, the way git, gh and Python's webbrowser do: `$BROWSER`
 * when it is set (each entry of its `:`-separated list in turn until one opens, as a command
 * split on spaces, without quoting; `%s` stands for the URL, else the URL is appended), otherwise
 * the system opener (`open` on macOS, `start` on Windows, `xdg-open` elsewhere) through the
 * `open` package. The URL goes to that program as one argument, never through a shell, and
 * nowhere else: not to a log, not to the model.
 *
 * A launcher that fails to start, or exits with a failure within a moment, did not open the
 * page; one that exits cleanly or keeps running did (a browser may keep its launcher alive).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { delimiter } from 'node:path';

/** How long a launcher has to fail before the page counts as opened. */
const SETTLE_MS = 1_000;

type Command = { command: string; args: string[] };

/** The `$BROWSER` commands for `url`, in order: program and arguments; none when BROWSER is unset. */
export function browserCommands(url: string, browser: string | undefined): Command[] {
  return (browser ?? '').split(delimiter).flatMap((entry) => {
    const [command, ...rest] = entry.trim().split(/\s+/);
    if (!command) return [];
    const args = rest.some((arg) => arg.includes('%s'))
      ? rest.map((arg) => arg.replaceAll('%s', url))
      : [...rest, url];
    return [{ command, args }];
  });
}

/** Opens `url` in the person's browser; true when a launcher started and did not fail. */
export async function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const commands = browserCommands(url, env.BROWSER);
  if (commands.length === 0) {
    try {
      const { default: open } = await import('open');
      return await settled(await open(url));
    } catch {
      return false;
    }
  }
  for (const { command, args } of commands) {
    if (await settled(spawn(command, args, { stdio: 'ignore', detached: true, env }))) return true;
  }
  return false;
}

/**
 * True unless the launcher errs or exits with a failure within SETTLE_MS. The wait holds the
 * process open (a launcher the `open` package started is already unref'd, so nothing else
 * would, and a CLI awaiting this would end with its answer unsettled).
 */
function settled(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode === 0);
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, SETTLE_MS);
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
