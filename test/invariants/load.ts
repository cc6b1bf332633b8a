/**
 * The bounded load run behind test/invariants/under-load.test.ts (what must hold) and
 * bench/load.bench.ts (how long each operation takes): one hub home, a counting board upstream,
 * several `hub serve --stdio` processes and one `hub serve --http`, each a lane driven by the
 * official SDK client. Every run posts once, so it asks; a person decides from the terminal
 * (`hub approve`) for the stdio lanes and on the approval page the hub opened for the HTTP lane,
 * and the model resumes. Midway one stdio process is killed with SIGKILL: its runs are resumed
 * from another lane, as a person's next session would.
 *
 * Each run ends in a state the report names; the board's count file says how often each post
 * reached it. Nothing here asserts: the test and the bench each read the report.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { addBoard, BIN, cli, cliEnv, hubHome, startServe } from '../node/cli-process.ts';
import { type PageBrowser, pageBrowser, stopPageHost } from '../node/page-browser.ts';

export type Operation = 'execute' | 'approve (terminal)' | 'approve (page)' | 'resume';

export interface LoadOptions {
  /** Runs in all. */
  runs: number;
  /** `serve --stdio` processes beside the one `serve --http`. */
  stdio: number;
  /** Runs each lane keeps in flight at once. */
  perLane: number;
  /** Kill the first stdio process once this many runs have started (never when undefined). */
  crashAfter?: number;
}

export interface RunEnd {
  index: number;
  runId: string;
  lane: string;
  /** The last envelope's status, or `lost` when no lane could say. */
  status: ExecuteEnvelope['status'] | 'lost';
  errorCode?: string;
  result?: unknown;
  /** True when the run was finished from another lane after its own died. */
  movedAfterCrash: boolean;
}

export interface LoadReport {
  ends: RunEnd[];
  /** How many times each run's post reached the board, by run index. */
  posts: Map<number, number>;
  /** Every sample, in milliseconds, by operation. */
  timings: Record<Operation, number[]>;
  crashed: boolean;
  /** Every run the hub knows at the end (`hub runs --json`), by id: its status. */
  known: Map<string, string>;
  /** What the hub's processes printed, for failure messages. */
  stderr(): string;
}

interface Lane {
  name: string;
  client: Client;
  page: boolean;
  alive: boolean;
  pid: number | undefined;
  stderr(): string;
}

const codeOf = (index: number) => `await board.post({ text: "load-${index}" }); return ${index};`;
const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as ExecuteEnvelope;

/** Runs the load and tears everything down; the report says what happened. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { home, remove } = hubHome();
  const browser = pageBrowser(home);
  const countFile = join(home, 'count.txt');
  const added = addBoard(home, countFile);
  if (added.status !== 0) throw new Error(`adding the board failed: ${added.stderr}`);
  const served = await startServe(home, ['--port', '0'], browser.env);
  const lanes: Lane[] = [];
  try {
    const token = readFileSync(served.tokenFile, 'utf8').trim();
    const http = new Client({ name: 'load', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await http.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', served.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    lanes.push({
      name: 'http',
      client: http,
      page: true,
      alive: true,
      pid: served.child.pid,
      stderr: served.stderr,
    });
    for (let n = 0; n < options.stdio; n++) {
      const { client, stderr, pid } = await stdioLane(home);
      lanes.push({ name: `stdio-${n}`, client, page: false, alive: true, pid, stderr });
    }
    const load = new Load(home, browser, lanes, options);
    const ends = await load.all();
    const listed = cli(home, ['--json', 'hub', 'runs', '--limit', String(options.runs * 2)]);
    if (listed.status !== 0) throw new Error(`hub runs failed: ${listed.stderr}`);
    const { runs } = JSON.parse(listed.stdout) as { runs: { id: string; status: string }[] };
    return {
      known: new Map(runs.map((run) => [run.id, run.status])),
      ends,
      posts: countPosts(existsSync(countFile) ? readFileSync(countFile, 'utf8').split('\n') : []),
      timings: load.timings,
      crashed: load.crashed,
      stderr: () => lanes.map((lane) => `--- ${lane.name}\n${lane.stderr()}`).join('\n'),
    };
  } finally {
    for (const lane of lanes) if (lane.alive) await lane.client.close().catch(() => undefined);
    await served.stop();
    stopPageHost(home);
    remove();
  }
}

/** The official client on a fresh `hub serve --stdio`, speaking 2025 (so a write asks by envelope). */
async function stdioLane(home: string) {
  const env = Object.fromEntries(
    Object.entries(cliEnv(home)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['hub', 'serve', '--stdio'],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'load', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: transport.pid ?? undefined };
}

/** The scheduling of one load: lanes take runs round robin, each keeping `perLane` in flight. */
class Load {
  readonly timings: Record<Operation, number[]> = {
    execute: [],
    'approve (terminal)': [],
    'approve (page)': [],
    resume: [],
  };
  crashed = false;
  private started = 0;
  private readonly home: string;
  private readonly pages: PageDecider;
  private readonly lanes: Lane[];
  private readonly options: LoadOptions;

  constructor(home: string, browser: PageBrowser, lanes: Lane[], options: LoadOptions) {
    this.home = home;
    this.lanes = lanes;
    this.options = options;
    this.pages = new PageDecider(browser);
  }

  async all(): Promise<RunEnd[]> {
    const ends: RunEnd[] = [];
    let next = 0;
    const worker = async (lane: Lane) => {
      for (let index = next++; index < this.options.runs; index = next++) {
        ends.push(await this.one(index, lane));
      }
    };
    await Promise.all(
      this.lanes.flatMap((lane) => Array.from({ length: this.options.perLane }, () => worker(lane))),
    );
    return ends.sort((a, b) => a.index - b.index);
  }

  private async timed<T>(operation: Operation, body: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const value = await body();
    this.timings[operation].push(performance.now() - t0);
    return value;
  }

  private async one(index: number, lane: Lane): Promise<RunEnd> {
    this.started++;
    if (this.options.crashAfter !== undefined && this.started === this.options.crashAfter) this.crash();
    let current = lane;
    let moved = false;
    let runId = '';
    try {
      let asked: ExecuteEnvelope | undefined;
      while (!asked) {
        try {
          asked = await this.timed('execute', async () =>
            envelopeOf(
              await current.client.callTool({ name: 'execute', arguments: { code: codeOf(index) } }),
            ),
          );
        } catch (error) {
          // The lane died before answering: the model never learned the run, so it asks again elsewhere.
          if (current.alive) throw error;
          current = this.liveLane();
          moved = true;
        }
      }
      runId = asked.runId;
      if (asked.status !== 'awaiting_approval') return this.end(index, runId, current, asked, moved);
      if (current.page) await this.timed('approve (page)', () => this.pages.decided(runId));
      else await this.timed('approve (terminal)', () => approveOnce(this.home, runId));
      for (let attempt = 0; attempt < 60; attempt++) {
        if (!current.alive) {
          current = this.liveLane();
          moved = true;
        }
        try {
          const done = await this.timed('resume', async () =>
            envelopeOf(await current.client.callTool({ name: 'execute', arguments: { resume: runId } })),
          );
          if (done.status !== 'running' && done.error?.code !== 'unavailable')
            return this.end(index, runId, current, done, moved);
        } catch (error) {
          if (current.alive) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } catch (error) {
      if (runId === '' || current.alive) throw error;
    }
    return { index, runId, lane: current.name, status: 'lost', movedAfterCrash: moved };
  }

  private end(index: number, runId: string, lane: Lane, envelope: ExecuteEnvelope, moved: boolean): RunEnd {
    return {
      index,
      runId,
      lane: lane.name,
      status: envelope.status,
      ...(envelope.error ? { errorCode: envelope.error.code } : {}),
      result: envelope.result,
      movedAfterCrash: moved,
    };
  }

  /** SIGKILL the first stdio lane's hub process, as a crash would. */
  private crash(): void {
    const victim = this.lanes.find((lane) => lane.name === 'stdio-0');
    if (!victim?.pid) return;
    victim.alive = false;
    this.crashed = true;
    process.kill(victim.pid, 'SIGKILL');
  }

  private liveLane(): Lane {
    const lane = this.lanes.find((candidate) => candidate.alive && !candidate.page);
    if (!lane) throw new Error('no live stdio lane left to resume on');
    return lane;
  }
}

/** `hub approve <runId> --choice once` in a terminal, without blocking the event loop. */
function approveOnce(home: string, runId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['--json', 'hub', 'approve', runId, '--choice', 'once'], {
      env: cliEnv(home),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`hub approve ${runId} exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * A person at the approval pages: takes each page the hub opened, in order, and presses
 * "Allow once" (the session cookie from the one-time link, the CSRF token from the form). A run
 * waits until the page that names it was decided.
 */
class PageDecider {
  private readonly browser: PageBrowser;
  private taken = 0;
  private readonly done = new Set<string>();
  private busy: Promise<void> = Promise.resolve();

  constructor(browser: PageBrowser) {
    this.browser = browser;
  }

  async decided(runId: string): Promise<void> {
    for (let waited = 0; !this.done.has(runId); waited += 100) {
      if (waited > 60_000) throw new Error(`no page was opened for ${runId}`);
      this.busy = this.busy.then(() => this.drain());
      await this.busy;
      if (!this.done.has(runId)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async drain(): Promise<void> {
    const urls = this.browser.opened();
    for (; this.taken < urls.length; this.taken++) {
      const url = urls[this.taken];
      if (url) this.done.add(await decideOnPage(url));
    }
  }
}

/** Opens `link` and allows the one call its page shows; answers the run's id. */
async function decideOnPage(link: string): Promise<string> {
  const opened = await fetch(link, { redirect: 'manual' });
  const location = opened.headers.get('location');
  const cookie = opened.headers.get('set-cookie')?.split(';')[0];
  if (!location || !cookie) throw new Error(`the link ${opened.status} gave no session`);
  const pageUrl = new URL(location, link);
  const runId = decodeURIComponent(pageUrl.pathname.split('/').at(-1) ?? '');
  const html = await (await fetch(pageUrl, { headers: { cookie } })).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`the page of ${runId} has no form`);
  const posted = await fetch(new URL(action.replaceAll('&amp;', '&'), pageUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: pageUrl.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      pendingId: field('pendingId'),
      csrf: field('csrf'),
      back: field('back'),
      choice: 'once',
    }),
  });
  if (posted.status >= 400) throw new Error(`deciding ${runId} on its page: ${posted.status}`);
  return runId;
}

function countPosts(lines: readonly string[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const line of lines) {
    const index = /^post load-(\d+)$/.exec(line)?.[1];
    if (index !== undefined) counts.set(Number(index), (counts.get(Number(index)) ?? 0) + 1);
  }
  return counts;
}
