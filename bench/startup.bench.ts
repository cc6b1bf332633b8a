/**
 * The startup benchmark (issues #19, #34): the milliseconds before the first answer, for the
 * package a person installs (packed and installed here, started as its entries start it) and for
 * the checkout's bin/capabilities. A harness starts
 * `capabilities hub serve --stdio` at the start of every session (and `claude mcp list` starts it
 * to check health), so what counts is spawn → the answer to the first `tools/list`. Measured
 * against a plain SDK stdio server, `@modelcontextprotocol/server-memory` from node_modules, the
 * two spawned alternately (which goes first alternating) so machine noise falls on both; and
 * `capabilities --version` (spawn → exit) against the same baseline. p50 of SPAWNS spawns each,
 * after a warm-up spawn of each (the compile cache and the OS's file cache filled). Targets: 1.5× for
 * the installed package, 2× for the checkout.
 *
 * Both servers get the same raw JSON-RPC lines (initialize, initialized, tools/list) on stdin,
 * so no client library's cost falls on either. Nothing here asserts a time. Runs on its own
 * (`node bench/startup.bench.ts`) or from bench/run.ts through `run()`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliEnv, REPO, tempHome } from '../test/node/cli-process.ts';
import { alternated, fmt, table } from './measure.ts';

/** One figure beside its baseline, in milliseconds. */
export interface StartupFigure {
  label: string;
  baselineLabel: string;
  ours: number;
  baseline: number;
  target: number;
}

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const MEMORY = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const SPAWNS = 15;

const HANDSHAKE = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'startup-bench', version: '1.0.0' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

/** Milliseconds from spawn to the `tools/list` answer (id 2) on stdout; the process is then killed. */
function toFirstToolsList(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    child.stdin.write(HANDSHAKE);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (done) return;
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (message.id === 2 && message.result?.tools) {
          done = true;
          const ms = performance.now() - start;
          child.kill('SIGTERM');
          child.once('exit', () => resolve(ms));
          return;
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.once('exit', (code) => {
      if (!done)
        reject(new Error(`${command} ${args.join(' ')} exited ${code} before tools/list:\n${err}${out}`));
    });
  });
}

/** Milliseconds from spawn to exit of a command expected to exit 0. */
function toExit(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.once('exit', (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${err}`));
    });
  });
}

/**
 * The package as a person has it: packed from this checkout and installed into a temporary
 * prefix; returns its bin script, which an entry starts as `node <script> hub serve --stdio`.
 */
function installPackage(into: string): string {
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', into], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = join(into, packed.stdout.trim().split('\n').at(-1) ?? '');
  const prefix = join(into, 'prefix');
  const installed = spawnSync(
    'npm',
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball],
    { encoding: 'utf8', timeout: 300_000 },
  );
  if (installed.status !== 0) throw new Error(`npm install failed: ${installed.stderr}`);
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string };
  return join(prefix, 'lib', 'node_modules', pkg.name, 'dist', 'capabilities.mjs');
}

/** The figures on a fresh temp hub (nothing but `hub init`'s defaults), which is then removed. */
export async function run(): Promise<StartupFigure[]> {
  const { home, remove } = tempHome();
  try {
    const env = cliEnv(home);
    const init = spawnSync(BIN, ['--no-input', 'hub', 'init'], { env, encoding: 'utf8', timeout: 60_000 });
    if (init.status !== 0) throw new Error(`hub init failed: ${init.stderr}`);
    const memoryEnv = { ...process.env, MEMORY_FILE_PATH: join(home, 'memory.jsonl') };
    const memory = () => toFirstToolsList(NODE, [MEMORY], memoryEnv);
    const script = installPackage(home);
    const installed = await alternated(
      SPAWNS,
      () => toFirstToolsList(NODE, [script, 'hub', 'serve', '--stdio'], env),
      memory,
    );
    const serve = await alternated(
      SPAWNS,
      () => toFirstToolsList(BIN, ['hub', 'serve', '--stdio'], env),
      memory,
    );
    const version = await alternated(SPAWNS, () => toExit(BIN, ['--version'], env), memory);
    return [
      {
        label: 'installed package: hub serve --stdio, spawn → first tools/list',
        baselineLabel: 'server-memory, same',
        ...installed,
        target: 1.5,
      },
      {
        label: 'checkout: hub serve --stdio, spawn → first tools/list',
        baselineLabel: 'server-memory, same',
        ...serve,
        target: 2,
      },
      {
        label: 'capabilities --version, spawn → exit',
        baselineLabel: 'server-memory → first tools/list',
        ...version,
        target: 2,
      },
    ];
  } finally {
    remove();
  }
}

/** The figures as text. */
export function format(figures: readonly StartupFigure[]): string {
  return table([
    ['startup (ms, p50)', 'ours', 'baseline', 'ours/baseline', 'target'],
    ...figures.map((f) => [
      `${f.label} / ${f.baselineLabel}`,
      fmt(f.ours),
      fmt(f.baseline),
      `${fmt(f.ours / f.baseline, 2)}×`,
      `≤ ${f.target}× ${f.ours / f.baseline <= f.target ? 'met' : 'missed'}`,
    ]),
  ]);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-2).join('/'))) {
  console.log(format(await run()));
}
