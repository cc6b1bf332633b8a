/**
 * `capabilities hub serve --http [--port n]`: serves the hub's app on 127.0.0.1, creating the
 * hub on first run. Runs until SIGINT or SIGTERM, then closes the socket and the store.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { RunningServer } from '../server.ts';
import type { Output } from './output.ts';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  }
  return port;
}

export function registerServe(hub: Command, output: () => Output): void {
  hub
    .command('serve')
    .description('Serve the hub on loopback (127.0.0.1) for clients that speak HTTP')
    .requiredOption('--http', 'serve HTTP on 127.0.0.1')
    .option('--port <n>', 'port to listen on (default: httpPort in hub.json, 4790)', parsePort)
    .option('--profile <name>', 'the profile to serve (only "default" for now)', 'default')
    .action(async (options: { port?: number; profile: string }) => {
      const out = output();
      if (options.profile !== 'default') {
        throw new InvalidArgumentError(`unknown profile "${options.profile}"; only "default" exists for now`);
      }
      const [{ homePaths }, { initHub, openLocalHub }, { serveHttp }] = await Promise.all([
        import('../home.ts'),
        import('../local-hub.ts'),
        import('../server.ts'),
      ]);
      const paths = homePaths();
      const init = initHub(paths, Date.now());
      if (init.created.length > 0) out.note(`Created the hub ${init.hubId} at ${paths.hub}.`);
      const hub = openLocalHub(paths, Date.now());
      let server: RunningServer;
      try {
        server = await serveHttp(hub, options.port ?? hub.httpPort);
      } catch (error) {
        hub.close();
        throw error;
      }
      out.result(
        { url: server.url, hubId: hub.hubId, tokenFile: paths.token },
        `capabilities hub ${hub.hubId} listening on ${server.url} (bearer token in ${paths.token}). Ctrl-C stops it.`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
      hub.close();
    });
}
