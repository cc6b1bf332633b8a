/**
 * The first search of a new session (issue #38): a harness starts `hub serve --stdio` when a
 * session starts, and the model's first `search` comes a moment later. On a hub of the 24 corpus
 * servers (397 tools, reviewed), the milliseconds from sending that search to its answer, sent
 * once the session is up and idle (IDLE_MS after the first tools/list answer, as a model's first
 * turn takes longer than that) and sent at once after it. Against a baseline in the same run: the
 * same hub with the search documents the store keeps dropped before each spawn, so the process
 * builds its index from the tool lists as the hub did before they were kept. Spawned alternately,
 * p50 of SPAWNS each after a warm-up of each. Target: under 50 ms once idle. Nothing here asserts
 * a time. Runs on its own (`node bench/first-search.bench.ts`) or from bench/run.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openLocalStore } from '../local/open-store.ts';
import { BIN, cliEnv, tempHome } from '../test/node/cli-process.ts';
import { storeSources } from '../test/stored-sources.ts';
import { loadManifests } from './corpus.ts';
import { alternated, fmt, table } from './measure.ts';

export interface FirstSearchFigure {
  label: string;
  ours: number;
  baseline: number;
  target?: number;
}

const SPAWNS = 7;
const IDLE_MS = 1_000;
const QUERY = 'create an issue in a repository';

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const HANDSHAKE =
  line({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  }) +
  line({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
  line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
const SEARCH = line({
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'search', arguments: { query: QUERY } },
});

/** Milliseconds from sending the first search to its answer, `idleMs` after the first tools/list answer. */
function firstSearch(env: NodeJS.ProcessEnv, idleMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['hub', 'serve', '--stdio'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let sent = 0;
    child.stdin.write(HANDSHAKE);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.startsWith('{')) continue;
        const message = JSON.parse(text) as { id?: number; error?: unknown };
        if (message.id === 2) {
          setTimeout(() => {
            sent = performance.now();
            child.stdin.write(SEARCH);
          }, idleMs);
        } else if (message.id === 3) {
          const ms = performance.now() - sent;
          child.kill('SIGTERM');
          if (message.error) reject(new Error(`search failed: ${JSON.stringify(message.error)}`));
          else child.once('exit', () => resolve(ms));
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.once('exit', (code) => {
      if (sent === 0) reject(new Error(`hub serve --stdio exited ${code} before searching:\n${err}`));
    });
  });
}

/** A hub of the 24 corpus servers, every tool reviewed, at `home`. */
async function corpusHub(home: string): Promise<void> {
  const env = cliEnv(home);
  const init = spawnSync(BIN, ['--no-input', 'hub', 'init'], { env, encoding: 'utf8', timeout: 60_000 });
  if (init.status !== 0) throw new Error(`hub init failed: ${init.stderr}`);
  const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
  try {
    storeSources(local.store, await loadManifests(), { reviewed: true });
  } finally {
    local.close();
  }
}

/** Drops the search documents the store keeps: the next process builds its index from the tool lists. */
function dropKept(home: string): void {
  const local = openLocalStore(join(home, 'hub', 'hub.db'), 0);
  try {
    local.sqlite.prepare('DELETE FROM hub_search_documents').run();
  } finally {
    local.close();
  }
}

export async function run(): Promise<FirstSearchFigure[]> {
  const { home, remove } = tempHome();
  try {
    await corpusHub(home);
    const env = cliEnv(home);
    const kept = (idle: number) => () => firstSearch(env, idle);
    const rebuilt = (idle: number) => () => {
      dropKept(home);
      return firstSearch(env, idle);
    };
    const idle = await alternated(SPAWNS, kept(IDLE_MS), rebuilt(IDLE_MS));
    const atOnce = await alternated(SPAWNS, kept(0), rebuilt(0));
    return [
      { label: `first search, ${IDLE_MS} ms after the session started`, ...idle, target: 50 },
      { label: 'first search, at once after tools/list', ...atOnce },
    ];
  } finally {
    remove();
  }
}

export function format(figures: readonly FirstSearchFigure[]): string {
  return table([
    ['first search (ms, p50)', 'kept documents', 'index from tool lists', 'kept/lists', 'target'],
    ...figures.map((f) => [
      f.label,
      fmt(f.ours),
      fmt(f.baseline),
      `${fmt(f.ours / f.baseline, 2)}×`,
      f.target === undefined ? '' : `< ${f.target} ms ${f.ours < f.target ? 'met' : 'missed'}`,
    ]),
  ]);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  console.log(format(await run()));
}
