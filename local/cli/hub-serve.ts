/**
 * `capabilities hub serve --stdio | --http [--port n] | --pages [--port n]`: serves the MCP
 * surface (search, describe, execute) for the hub at CAPABILITIES_HOME; or, with `--pages`, only
 * its approval page and dashboard (the page host that `--stdio` processes start on their own when
 * a page must open; local/pages/page-host.ts).
 *
 * The hub must exist: serving never creates one. A client whose entry lost its CAPABILITIES_HOME
 * then fails to start, with an error naming where it looked and `capabilities hub init`, rather
 * than showing a new, empty hub as healthy. (`npm start` runs `hub init` first.)
 *
 * - `--stdio` is what harness configs launch: one process per session, stdout is the protocol,
 *   every note goes to stderr. It ends when the client closes stdin, or on SIGINT/SIGTERM.
 * - `--profile <name>` picks the profile served (default: `default`); an unknown one is an error
 *   listing the profiles.
 * - `--http` serves the one Hono app on 127.0.0.1 (bearer token, Host/Origin checks) with the
 *   surface at /mcp, and each profile's at /mcp/<name>, stateless. After the listening line it prints how to connect Claude Code,
 *   Codex and Cursor (local/setup-snippets.ts; text mode only, never the token). It runs until
 *   SIGINT or SIGTERM.
 *
 * This file checks the options; serving is local/serve-hub.ts. Both modes open the hub through
 * `openHub` (local/open-hub.ts), the same wiring as every other command, and close the sandbox,
 * the sources and the store on the way out.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { HubError } from '../../engine/errors.ts';
import { outputOf } from './hub-action.ts';

interface ServeOptions {
  http?: boolean;
  stdio?: boolean;
  pages?: boolean;
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

export function registerServe(hub: Command): void {
  hub
    .command('serve')
    .description('Serve the hub over MCP: --stdio for one harness session, --http on 127.0.0.1')
    .option('--stdio', 'speak MCP on stdin/stdout (what harness configs launch)')
    .option('--http', 'serve HTTP on 127.0.0.1, with MCP at /mcp and the approval pages beside it')
    .option('--pages', 'serve only the approval page and dashboard on 127.0.0.1 (started on demand)')
    .option(
      '--port <n>',
      'port to listen on with --http (default: httpPort in hub.json, 4790) or --pages (default: a free one)',
      parsePort,
    )
    .option(
      '--profile <name>',
      'the profile to serve (see `capabilities hub profiles list`); with --http, the one at /mcp (every profile is at /mcp/<name>)',
      'default',
    )
    .action(async (options: ServeOptions, command: Command) => {
      const out = outputOf(command);
      // HubError, not InvalidArgumentError: main() prints a HubError's message (exit 2).
      if ([options.stdio, options.http, options.pages].filter(Boolean).length !== 1) {
        throw new HubError('invalid_input', 'pass exactly one of --stdio, --http or --pages');
      }
      if (options.stdio && options.port !== undefined) {
        throw new HubError('invalid_input', '--port goes with --http; --stdio has no port');
      }
      const [{ openHub }, { serveHub }] = await Promise.all([
        import('../open-hub.ts'),
        import('../serve-hub.ts'),
      ]);
      const open = openHub(out);
      try {
        await open.ownSecretsRead;
        // An unknown profile fails here, before anything is served: its message lists the
        // profiles and names `capabilities hub profiles list` (the local wording).
        if (!options.pages) open.engine.profiles.get(options.profile);
        const mode = options.stdio
          ? { kind: 'stdio' as const }
          : { kind: options.http ? ('http' as const) : ('pages' as const), port: options.port };
        await serveHub(open, mode, options.profile, out);
      } finally {
        await open.close();
      }
    });
}
