/**
 * The hub's page host at work (`capabilities hub serve --pages`; what it is and how processes
 * find it: page-host.ts): the pages alone on 127.0.0.1, registered in pages.json, until a signal,
 * PAGE_HOST_IDLE_MS without a request, or another page host in its place.
 */
import type { Output } from '../cli/output.ts';
import type { OpenHub } from '../open-hub.ts';
import { stopSignal } from '../stop-signal.ts';

/**
 * The hub's page host (`serve --pages`): the pages alone on 127.0.0.1, registered in pages.json
 * so every `serve --stdio` of the hub opens its pages here. It leaves on a signal, after
 * PAGE_HOST_IDLE_MS without a request, or when another page host took its place; a live page
 * host already serving the hub makes this one leave at once.
 */
export async function servePages(open: OpenHub, out: Output, port: number | undefined): Promise<void> {
  const [{ serveHttp: listen }, { homePaths }, { localPages }, host] = await Promise.all([
    import('../server.ts'),
    import('../home.ts'),
    import('./local-pages.ts'),
    import('./page-host.ts'),
  ]);
  const paths = homePaths();
  const pages = localPages(open);
  let lastRequest = Date.now();
  const server = await listen(open.local, port ?? 0, {
    pages: (request) => {
      lastRequest = Date.now();
      return pages(request);
    },
  });
  const mine = { pid: process.pid, port: server.port, hubId: open.local.hubId };
  if (!(await host.registerPageHost(paths, mine, open.local.token))) {
    out.note(`A page host already serves hub ${open.local.hubId}; this one leaves.`);
    await server.close();
    return;
  }
  out.result(
    { url: server.url, hubId: open.local.hubId, pid: process.pid },
    `capabilities hub ${open.local.hubId} serving its pages on ${server.url}. Ctrl-C stops it.`,
  );
  const leave = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const idle = Date.now() - lastRequest > host.PAGE_HOST_IDLE_MS;
      if (idle || !host.stillRegistered(paths, mine)) {
        clearInterval(timer);
        resolve();
      }
    }, PAGE_HOST_CHECK_MS);
  });
  await Promise.race([stopSignal(), leave]);
  host.unregisterPageHost(paths, mine);
  await server.close();
}

/** How often the page host checks whether it is idle or replaced. */
const PAGE_HOST_CHECK_MS = 15_000;
