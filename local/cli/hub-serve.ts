/**
 * `capabilities hub serve --stdio | --http [--port n]`: serves the MCP surface (search,
 * describe, execute) for the hub at CAPABILITIES_HOME, creating the hub on first run.
 *
 * - `--stdio` is what harness configs launch: one process per session, stdout is the protocol,
 *   every note goes to stderr. It ends when the client closes stdin, or on SIGINT/SIGTERM.
 * - `--http` serves the one Hono app on 127.0.0.1 (bearer token, Host/Origin checks) with the
 *   surface at /mcp, stateless. After the listening line it prints how to connect Claude Code,
 *   Codex and Cursor (local/setup-snippets.ts; text mode only, never the token). It runs until
 *   SIGINT or SIGTERM.
 *
 * Both open the hub through `openHub`, the same wiring as every other command, sweep runs while
 * they serve (expiry, 7-day retention), and close the sandbox, the sources and the store on the
 * way out.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { inertLine, inertText } from '../../engine/inert.ts';
import type { SurfaceDeps } from '../../engine/surface/index.ts';
import { cryptoRandom, systemClock } from '../../engine/system.ts';
import type { RunningServer } from '../server.ts';
import { outputOf } from './hub-action.ts';
import { type Output, scrubbed } from './output.ts';
import type { OpenHub } from './with-hub.ts';

interface ServeOptions {
  http?: boolean;
  stdio?: boolean;
  port?: number;
  profile: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  }
  return port;
}

/** Resolves on the first SIGINT or SIGTERM. */
const stopSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

/**
 * A line on stderr for errors the model is not told about (stdout may be the protocol), scrubbed
 * of every secret the hub holds like everything else this process prints. The error may quote an
 * upstream, so it is then made inert; a stack keeps its lines.
 */
function logToStderr(message: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`capabilities: ${inertLine(scrubbed(message))}: ${inertText(scrubbed(detail))}\n`);
}

async function surfaceDeps(open: OpenHub, profile: string): Promise<SurfaceDeps> {
  const [{ engineSurfaceDeps }, { version }, { ClientPrompt }] = await Promise.all([
    import('../../engine/surface/index.ts'),
    import('./with-hub.ts'),
    import('../../engine/runs/client-prompt.ts'),
  ]);
  // Warm the sandbox now, so the first execute does not pay for it; a failure shows up there.
  open.engine.runs().catch(() => {});
  // Approvals in the client's own prompt: the host hands the surface the one signed path to
  // the person-input module (the surface itself never imports it).
  const prompt = new ClientPrompt({
    store: open.local.store,
    hubId: open.local.hubId,
    clock: systemClock,
    random: cryptoRandom,
    wording: open.engine.wording,
  });
  return engineSurfaceDeps({
    lookup: open.engine.lookup,
    runs: open.engine.runs,
    version,
    profile,
    prompt,
    log: logToStderr,
    scrubbing: open.engine.secrets,
    wording: open.engine.wording,
  });
}

/** How often a serving process sweeps runs (expired requests, runs past retention). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Sweeps runs now and then every SWEEP_EVERY_MS while the process serves: a request nobody
 * answered expires its run, and runs that ended more than 7 days ago go. Several serving
 * processes may sweep the same store; each sweep is idempotent.
 */
function sweepRuns(open: OpenHub): () => void {
  const sweep = () =>
    open.engine
      .runs()
      .then((runs) => runs.sweep())
      .catch((error: unknown) => logToStderr('sweeping runs failed', error));
  void sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

async function serveStdio(open: OpenHub, profile: string): Promise<void> {
  const { serveMcpStdio } = await import('../mcp-stdio.ts');
  const session = serveMcpStdio(await surfaceDeps(open, profile));
  await Promise.race([session.closed, stopSignal()]);
  await session.close();
}

async function serveHttp(open: OpenHub, profile: string, out: Output, port: number | undefined) {
  const [{ serveHttp: listen }, { createMcpHttpHandler }, { homePaths }, { CHECKOUT_BIN, setupSnippets }] =
    await Promise.all([
      import('../server.ts'),
      import('../../engine/surface/index.ts'),
      import('../home.ts'),
      import('../setup-snippets.ts'),
    ]);
  const mcp = createMcpHttpHandler(await surfaceDeps(open, profile));
  const server: RunningServer = await listen(open.local, port ?? open.local.httpPort, mcp.fetch);
  const tokenFile = homePaths().token;
  const home = process.env.CAPABILITIES_HOME?.trim() || undefined;
  const connect = setupSnippets({ bin: CHECKOUT_BIN, url: server.url, tokenFile, home });
  out.result(
    { url: server.url, hubId: open.local.hubId, tokenFile },
    `capabilities hub ${open.local.hubId} listening on ${server.url} (MCP at ${server.url}/mcp, bearer token in ${tokenFile}). Ctrl-C stops it.\n\n${connect}`,
  );
  await stopSignal();
  await mcp.close();
  await server.close();
}

export function registerServe(hub: Command): void {
  hub
    .command('serve')
    .description('Serve the hub over MCP: --stdio for one harness session, --http on 127.0.0.1')
    .option('--stdio', 'speak MCP on stdin/stdout (what harness configs launch)')
    .option('--http', 'serve HTTP on 127.0.0.1, with MCP at /mcp')
    .option('--port <n>', 'port to listen on with --http (default: httpPort in hub.json, 4790)', parsePort)
    .option('--profile <name>', 'the profile to serve (only "default" for now)', 'default')
    .action(async (options: ServeOptions, command: Command) => {
      const out = outputOf(command);
      // HubError, not InvalidArgumentError: main() prints a HubError's message (exit 2).
      if (Boolean(options.stdio) === Boolean(options.http)) {
        throw new HubError('invalid_input', 'pass exactly one of --stdio or --http');
      }
      if (options.stdio && options.port !== undefined) {
        throw new HubError('invalid_input', '--port goes with --http; --stdio has no port');
      }
      if (options.profile !== 'default') {
        throw new HubError(
          'invalid_input',
          `unknown profile "${options.profile}"; only "default" exists for now`,
        );
      }
      const { openHub } = await import('./with-hub.ts');
      const open = openHub(out);
      const stopSweeping = sweepRuns(open);
      try {
        if (options.stdio) await serveStdio(open, options.profile);
        else await serveHttp(open, options.profile, out, options.port);
      } finally {
        stopSweeping();
        await open.close();
      }
    });
}
