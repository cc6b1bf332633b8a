/**
 * The local hub, serving: the engine's surface (the one assembly, `engineSurfaceDeps`) with the
 * client prompt and the approval page wired in, over stdio for one harness session or over HTTP
 * on loopback (with the pages beside /mcp), or the pages alone as the hub's page host
 * (local/pages/serve-pages.ts); with runs and page links swept while it serves (expiry, 7-day
 * retention). Each serves one profile: stdio the one it was given (its direct tools followed in the
 * shared store), HTTP that one at /mcp and every profile at /mcp/<name>.
 * `capabilities hub serve` (local/cli/hub-serve.ts)
 * checks its options and calls `serveHub`; the hub is opened by `openHub` like every command's.
 */
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { isHubError } from '../engine/errors.ts';
import { inertLine, inertText } from '../engine/inert.ts';
import type { SurfaceDeps, SurfacePages } from '../engine/surface/index.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import { type Output, scrubbed } from './cli/output.ts';
import { type OpenHub, version } from './open-hub.ts';
import type { RunningServer } from './server.ts';
import { stopSignal } from './stop-signal.ts';

/**
 * How to serve: one harness session on stdio; HTTP on 127.0.0.1 (on `port`, else hub.json's);
 * or the pages alone, as the hub's page host (on `port`, else one the system picks).
 */
export type ServeMode =
  | { kind: 'stdio' }
  | { kind: 'http'; port?: number | undefined }
  | { kind: 'pages'; port?: number | undefined };

/** Serves the open hub until the client or a signal ends it; sweeps runs meanwhile. */
export async function serveHub(open: OpenHub, mode: ServeMode, profile: string, out: Output): Promise<void> {
  // The sandbox (worker threads), the first sweep and the search index start once the process
  // is answering: for stdio after its first answer, so they do not compete with it for the CPU
  // (issue #19).
  let stopSweeping = () => {};
  let warmed = false;
  // Set when serving ends: a warm-up still queued then starts nothing on the closing hub.
  let stopped = false;
  const warm = () => {
    if (warmed) return;
    warmed = true;
    // First the search index, from the documents the store keeps (a model's first call is
    // usually a search), once this turn is done; a failure shows up in the first search.
    setImmediate(() => {
      if (stopped) return;
      try {
        open.engine.lookupFor(profile).warm();
      } catch {}
      // Then the sandbox, so the first execute does not pay for it; a failure shows up there.
      setImmediate(() => {
        if (stopped) return;
        open.engine.runs().catch(() => {});
        stopSweeping = sweepRuns(open);
      });
    });
  };
  try {
    if (mode.kind === 'stdio') await serveStdio(open, profile, warm);
    else if (mode.kind === 'http') await serveHttp(open, profile, out, mode.port, warm);
    else {
      warm();
      const { servePages } = await import('./pages/serve-pages.ts');
      await servePages(open, out, mode.port);
    }
  } finally {
    stopped = true;
    stopSweeping();
  }
}

/**
 * A line on stderr for errors the model is not told about (stdout may be the protocol), scrubbed
 * of every secret the hub holds like everything else this process prints. The error may quote an
 * upstream, so it is then made inert; a stack keeps its lines.
 */
function logToStderr(message: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`capabilities: ${inertLine(scrubbed(message))}: ${inertText(scrubbed(detail))}\n`);
}

/**
 * The approval page for clients the hub cannot prompt, opened in the person's browser at `base`
 * (the page host, or this process's own server); undefined when opening pages is turned off.
 */
async function approvalPages(open: OpenHub, base: () => Promise<string>): Promise<SurfacePages | undefined> {
  const [{ opensPages, PageOpener }, { openInBrowser }] = await Promise.all([
    import('./pages/page-opener.ts'),
    import('./pages/browser.ts'),
  ]);
  if (!opensPages(open.local.openPages)) return undefined;
  return new PageOpener({ base, mint: (target) => open.engine.pages.mintLink(target), open: openInBrowser });
}

async function surfaceDeps(
  open: OpenHub,
  profile: string,
  pages: SurfacePages | undefined,
  watch = false,
): Promise<SurfaceDeps> {
  const [{ engineSurfaceDeps }, { ClientPrompt }] = await Promise.all([
    import('../engine/surface/index.ts'),
    import('../engine/runs/client-prompt.ts'),
  ]);
  // Approvals in the client's own prompt: the host hands the surface the one signed path to
  // the person-input module (the surface itself never imports it).
  const prompt = new ClientPrompt({
    store: open.local.store,
    hubId: open.local.hubId,
    clock: systemClock,
    random: cryptoRandom,
    wording: open.engine.wording,
  });
  return engineSurfaceDeps(open.engine, {
    version,
    profile,
    prompt,
    log: logToStderr,
    ...(watch ? { watch: pollStore } : {}),
    ...(pages ? { pages } : {}),
  });
}

/** How often a stdio server looks at the shared store for a change to its direct tools. */
const WATCH_EVERY_MS = 1_000;

/**
 * Notices a change another process made to the store (a source added, refreshed or removed, the
 * profile edited) by reading the profile's stamp now and then: the store has no way to call a
 * process back, and the read is two small queries.
 */
function pollStore(stamp: () => string, changed: () => void): () => void {
  let last = '';
  let failing = '';
  const look = () => {
    try {
      const now = stamp();
      failing = '';
      if (now === last) return;
      last = now;
      changed();
    } catch (error) {
      // Said once per different failure (a profile removed meanwhile fails every time after).
      const message = error instanceof Error ? error.message : String(error);
      if (message !== failing) logToStderr('reading the profile for its tools failed', error);
      failing = message;
    }
  };
  try {
    last = stamp();
  } catch {
    // the first look reports it
  }
  const timer = setInterval(look, WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * `/mcp` (the profile `serve` was given) and `/mcp/<profile>` for every other profile: a handler
 * per profile and mode, made once on the first request (requests at once share it). Each request
 * builds its server from the store as it is then, so an edit of what a profile shows needs no new
 * handler; a change of mode does, and the handler it replaces is closed only with the process, so
 * exchanges in flight on it finish (a client cut off would run its call again). An unknown
 * profile is a 404 whose message says how to list them.
 */
async function profileEndpoints(open: OpenHub, profile: string, pages: SurfacePages | undefined) {
  const { createMcpHttpHandler } = await import('../engine/surface/index.ts');
  const handlers = new Map<string, Promise<McpHttpHandler>>();
  const handlerOf = (name: string): Promise<McpHttpHandler> => {
    const key = `${name} ${open.engine.profiles.get(name).mode}`;
    let handler = handlers.get(key);
    if (!handler) {
      handler = surfaceDeps(open, name, pages).then(createMcpHttpHandler);
      handlers.set(key, handler);
      handler.catch(() => handlers.delete(key));
    }
    return handler;
  };
  const PREFIX = '/mcp/';
  const notFound = (message: string) =>
    Response.json({ error: { code: 'not_found', message } }, { status: 404 });
  return {
    fetch: async (request: Request): Promise<Response> => {
      const path = new URL(request.url).pathname;
      let name = profile;
      if (path.startsWith(PREFIX)) {
        try {
          name = decodeURIComponent(path.slice(PREFIX.length));
        } catch {
          return notFound(`${path} names no profile. ${open.engine.wording.listProfiles}`);
        }
      }
      let handler: McpHttpHandler;
      try {
        handler = await handlerOf(name);
      } catch (error) {
        if (!isHubError(error, 'not_found')) throw error;
        return notFound(error.message);
      }
      return handler.fetch(request);
    },
    close: async () => {
      const all = await Promise.allSettled(handlers.values());
      await Promise.all(all.map((made) => (made.status === 'fulfilled' ? made.value.close() : undefined)));
    },
  };
}

/** How often a serving process sweeps runs (expired requests, runs past retention). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Sweeps runs and page links now and then every SWEEP_EVERY_MS while the process serves: a
 * request nobody answered expires its run, runs that ended more than 7 days ago go, and so do
 * page links and sessions past their time. Several serving processes may sweep the same store;
 * each sweep is idempotent.
 */
function sweepRuns(open: OpenHub): () => void {
  const sweep = () =>
    open.engine
      .runs()
      .then((runs) => {
        runs.sweep();
        open.engine.pages.sweep();
      })
      .catch((error: unknown) => logToStderr('sweeping runs failed', error));
  void sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** How long a stdio session waits for its first answer before starting the sandbox anyway. */
const WARM_AFTER_MS = 2_000;

async function serveStdio(open: OpenHub, profile: string, warm: () => void): Promise<void> {
  const [{ serveMcpStdio }, { ensurePageHost }, { homePaths }] = await Promise.all([
    import('./mcp-stdio.ts'),
    import('./pages/page-host.ts'),
    import('./home.ts'),
  ]);
  // This session may end before the person decides, so its pages are the page host's.
  const pages = await approvalPages(open, () => ensurePageHost(homePaths(), open.local));
  const session = serveMcpStdio(await surfaceDeps(open, profile, pages, true));
  // Or after a while without an answer (a client that only initializes still gets a warm sandbox).
  const later = setTimeout(warm, WARM_AFTER_MS);
  later.unref();
  void session.firstAnswered.then(() => {
    clearTimeout(later);
    warm();
  });
  await Promise.race([session.closed, stopSignal()]);
  await session.close();
}

async function serveHttp(
  open: OpenHub,
  profile: string,
  out: Output,
  port: number | undefined,
  warm: () => void,
) {
  const [{ serveHttp: listen }, { homePaths }, { setupSnippets }, { launcher }, { localPages }] =
    await Promise.all([
      import('./server.ts'),
      import('./home.ts'),
      import('./setup-snippets.ts'),
      import('./package-files.ts'),
      import('./pages/local-pages.ts'),
    ]);
  // This process serves its own pages, beside /mcp; its URL is known once it listens.
  let base: string | undefined;
  const pages = await approvalPages(open, async () => {
    if (!base) throw new Error('the server is not listening yet');
    return base;
  });
  const mcp = await profileEndpoints(open, profile, pages);
  const tokenFile = homePaths().token;
  const server: RunningServer = await listen(open.local, port ?? open.local.httpPort, {
    mcp: mcp.fetch,
    mcpProfiles: true,
    pages: localPages(open),
    tokenFile,
  });
  base = server.url;
  warm();
  const home = process.env.CAPABILITIES_HOME?.trim() || undefined;
  const connect = setupSnippets({ launch: launcher(), url: server.url, tokenFile, home });
  out.result(
    { url: server.url, hubId: open.local.hubId, tokenFile },
    `capabilities hub ${open.local.hubId} listening on ${server.url} (MCP at ${server.url}/mcp, bearer token in ${tokenFile}). Ctrl-C stops it.\n\n${connect}`,
  );
  await stopSignal();
  await mcp.close();
  await server.close();
}
