/**
 * The local hub's pages, around the browser: how `$BROWSER` is read, the setting that turns
 * opening off, one page per run and set of calls, the page host that several processes start at
 * once (one remains, and it answers only on loopback and only for its hub), and `serve --http`
 * serving the pages beside /mcp while /mcp keeps its bearer token.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HomePaths, homePaths } from '../../local/home.ts';
import { browserCommands, openInBrowser } from '../../local/pages/browser.ts';
import { livePageHost, readPageHost } from '../../local/pages/page-host.ts';
import { opensPages, PageOpener } from '../../local/pages/page-opener.ts';
import { BIN, cli, cliEnv, hubHome, startServe } from './cli-process.ts';

/** The hub's id and token, as its own processes know them. */
const hubKey = (paths: HomePaths) => ({
  hubId: (JSON.parse(readFileSync(paths.hubFile, 'utf8')) as { hubId: string }).hubId,
  token: readFileSync(paths.token, 'utf8').trim(),
});

describe('$BROWSER', () => {
  const url = 'http://127.0.0.1:1234/open?t=abc';
  it('is a list of commands, each with the URL appended or in place of %s, never run through a shell', () => {
    expect(browserCommands(url, undefined)).toEqual([]);
    expect(browserCommands(url, ' ')).toEqual([]);
    expect(browserCommands(url, 'firefox')).toEqual([{ command: 'firefox', args: [url] }]);
    expect(browserCommands(url, 'chromium --new-window')).toEqual([
      { command: 'chromium', args: ['--new-window', url] },
    ]);
    expect(browserCommands(url, 'lynx -dump %s:w3m')).toEqual([
      { command: 'lynx', args: ['-dump', url] },
      { command: 'w3m', args: [url] },
    ]);
    expect(browserCommands(url, 'x; rm -rf ~')).toEqual([{ command: 'x;', args: ['rm', '-rf', '~', url] }]);
  });

  it('tries each entry in turn until one opens', async () => {
    expect(await openInBrowser(url, { ...process.env, BROWSER: '/nonexistent/browser:false:true' })).toBe(
      true,
    );
    expect(await openInBrowser(url, { ...process.env, BROWSER: '/nonexistent/browser:false' })).toBe(false);
  });
});

describe('the setting that turns opening off', () => {
  it('follows hub.json unless CAPABILITIES_OPEN_PAGES says otherwise for the process', () => {
    expect(opensPages(true, {})).toBe(true);
    expect(opensPages(false, {})).toBe(false);
    for (const off of ['0', 'false', 'OFF', 'no'])
      expect(opensPages(true, { CAPABILITIES_OPEN_PAGES: off })).toBe(false);
    expect(opensPages(false, { CAPABILITIES_OPEN_PAGES: '1' })).toBe(true);
    expect(opensPages(false, { CAPABILITIES_OPEN_PAGES: ' ' })).toBe(false);
  });
});

describe('PageOpener', () => {
  it('opens one page per run and set of calls, afresh for a call the page has not shown', async () => {
    const urls: string[] = [];
    let n = 0;
    const opener = new PageOpener({
      base: async () => 'http://127.0.0.1:9',
      mint: async () => ({ token: `t${++n}`, expiresAt: 0 }),
      open: async (url) => {
        urls.push(url);
        return true;
      },
    });
    expect(await opener.open('run_a', ['p1'])).toBe(true);
    expect(await opener.open('run_a', ['p1'])).toBe(true);
    expect(urls).toEqual(['http://127.0.0.1:9/open?t=t1']);
    expect(await opener.open('run_a', ['p1', 'p2'])).toBe(true);
    expect(await opener.open('run_b', ['p3'])).toBe(true);
    expect(urls).toHaveLength(3);
  });

  it('opens the page again when the page host that served it is gone and another serves now', async () => {
    const urls: string[] = [];
    let base = 'http://127.0.0.1:9';
    const opener = new PageOpener({
      base: async () => base,
      mint: async () => ({ token: `t${urls.length}`, expiresAt: 0 }),
      open: async (url) => {
        urls.push(url);
        return true;
      },
    });
    await opener.open('run_a', ['p1']);
    base = 'http://127.0.0.1:10';
    await opener.open('run_a', ['p1']);
    expect(urls).toEqual(['http://127.0.0.1:9/open?t=t0', 'http://127.0.0.1:10/open?t=t1']);
  });

  it('says no page opened when the browser did not open, and tries again next time', async () => {
    let works = false;
    const opener = new PageOpener({
      base: async () => 'http://127.0.0.1:9',
      mint: async () => ({ token: 't', expiresAt: 0 }),
      open: async () => works,
    });
    expect(await opener.open('run_a', ['p1'])).toBe(false);
    works = true;
    expect(await opener.open('run_a', ['p1'])).toBe(true);
  });
});

describe('the page host', () => {
  let home: string;
  let remove: () => void;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    ({ home, remove } = hubHome());
    expect(cli(home, ['hub', 'init']).status).toBe(0);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGTERM');
    const registered = readPageHost(homePaths({ CAPABILITIES_HOME: home }));
    if (registered) {
      try {
        process.kill(registered.pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    }
    remove();
  });

  const host = () => {
    const child = spawn(BIN, ['hub', 'serve', '--pages'], { env: cliEnv(home), stdio: 'ignore' });
    children.push(child);
    return child;
  };
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((done) => {
      if (child.exitCode !== null) done(child.exitCode);
      else child.once('exit', (code) => done(code));
    });

  it('started by two processes at once, one remains registered and answers for its hub on loopback only', async () => {
    const [a, b] = [host(), host()];
    const paths = homePaths({ CAPABILITIES_HOME: home });
    const hub = hubKey(paths);
    let base: string | undefined;
    for (let i = 0; i < 150 && !base; i++) {
      await new Promise((r) => setTimeout(r, 100));
      base = await livePageHost(paths, hub);
    }
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const registered = readPageHost(paths);
    const loser = registered?.pid === a.pid ? b : a;
    expect(await exited(loser)).toBe(0);
    expect(await livePageHost(paths, { ...hub, hubId: 'hub_another' })).toBeUndefined();
    expect(await livePageHost(paths, { ...hub, token: 'x'.repeat(43) })).toBeUndefined();

    // Pages need a session; /mcp is not served here; Host must be loopback.
    expect((await fetch(`${base}/runs/run_x`)).status).toBe(401);
    expect((await fetch(`${base}/`)).status).toBe(401);

    // Stopped, it leaves and takes its registration with it.
    const winner = registered?.pid === a.pid ? a : b;
    winner.kill('SIGTERM');
    expect(await exited(winner)).toBe(0);
    expect(existsSync(paths.pagesFile)).toBe(false);
  }, 60_000);

  it('a program on a dead page host’s port that claims the hub id is not trusted with a link', async () => {
    const paths = homePaths({ CAPABILITIES_HOME: home });
    const { hubId } = hubKey(paths);
    const asked: string[] = [];
    const spoof = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ hubId, schemaVersion: 4, proof: 'f'.repeat(64) }));
    });
    await new Promise<void>((done) => spoof.listen(0, '127.0.0.1', () => done()));
    const port = (spoof.address() as AddressInfo).port;
    writeFileSync(paths.pagesFile, `${JSON.stringify({ pid: 999_999, port, hubId })}\n`);
    try {
      const opened = cli(home, ['--json', 'hub', 'dashboard']);
      expect(opened.status, opened.stderr).toBe(0);
      const { url } = JSON.parse(opened.stdout) as { url: string };
      expect(new URL(url).port).not.toBe(String(port));
      expect(readPageHost(paths)?.port).toBe(Number(new URL(url).port));
      expect(asked.filter((path) => path.startsWith('/open'))).toEqual([]);
      expect(asked.every((path) => path.startsWith('/healthz?nonce='))).toBe(true);
    } finally {
      spoof.close();
    }
  }, 60_000);

  it('`hub dashboard` starts it when none runs and prints a link when no browser opens', () => {
    const opened = cli(home, ['--json', 'hub', 'dashboard']);
    expect(opened.status, opened.stderr).toBe(0);
    const shown = JSON.parse(opened.stdout) as { opened: boolean; url: string };
    expect(shown.opened).toBe(false);
    expect(shown.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?t=[A-Za-z0-9_-]{43}$/);
    const text = cli(home, ['hub', 'dashboard']);
    expect(text.stdout).toMatch(
      /^No browser opened\. Open this link yourself \(it works once, until \d\d:\d\d UTC\):\n/,
    );
    // The second call found the page host the first one started.
    expect(new URL(text.stdout.trim().split('\n').at(-1) ?? '').port).toBe(new URL(shown.url).port);
  }, 60_000);
});

describe('serve --http', () => {
  it('serves the pages beside /mcp, and /mcp still needs its bearer token', async () => {
    const { home, remove } = hubHome();
    const served = await startServe(home);
    try {
      expect((await fetch(`${served.url}/runs/run_x`)).status).toBe(401);
      expect((await fetch(`${served.url}/open?t=${'A'.repeat(43)}`)).status).toBe(404);
      const mcp = await fetch(`${served.url}/mcp`, { method: 'POST', body: '{}' });
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="capabilities", error="invalid_token"/,
      );
      expect(existsSync(join(home, 'hub', 'pages.json'))).toBe(false);
    } finally {
      await served.stop();
      remove();
    }
  }, 60_000);
});
