/**
 * The person's browser, for tests of the approval page: `$BROWSER` is a script that writes each
 * URL the hub opens to a file (the test then opens them itself), and the page host the hub started
 * for those pages, which outlives the hub's own processes, is stopped at the end.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PageBrowser {
  /** What a hub process needs in its environment to open pages through this browser. */
  env: { BROWSER: string; CAPABILITIES_OPEN_PAGES: '1' };
  /** The URLs the hub opened, in order. */
  opened(): string[];
}

export function pageBrowser(home: string): PageBrowser {
  const urlFile = join(home, 'opened-urls.txt');
  const script = join(home, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${urlFile}'\n`);
  chmodSync(script, 0o755);
  return {
    env: { BROWSER: script, CAPABILITIES_OPEN_PAGES: '1' },
    opened: () =>
      existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim().split('\n').filter(Boolean) : [],
  };
}

/** Stops the page host of the hub at `home`, if it started one. */
export function stopPageHost(home: string): void {
  const file = join(home, 'hub', 'pages.json');
  if (!existsSync(file)) return;
  const { pid } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}
