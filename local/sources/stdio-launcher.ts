/**
 * Starts a stdio MCP server for the local hub: the SDK's StdioClientTransport with the SDK's
 * safe default environment (PATH, HOME, …) plus the source's own and its connection's
 * variables, in the directory the person added it from (so `./server.js` means the same file
 * whichever harness starts it), and stderr piped so supervision can keep its tail.
 */
import { existsSync } from 'node:fs';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../engine/connectors/guarded-fetch.ts';
import { KindConnector } from '../../engine/connectors/kind-connector.ts';
import {
  McpConnector,
  type McpConnectorOptions,
  type StdioLauncher,
} from '../../engine/connectors/mcp-connector.ts';
import { MAX_DOCUMENT_BYTES, tooLarge } from '../../engine/connectors/openapi/document.ts';
import { OpenApiConnector } from '../../engine/connectors/openapi-connector.ts';
import { HubError } from '../../engine/errors.ts';
import { localWording } from '../wording.ts';

export const launchStdio: StdioLauncher = ([command, ...args], env, cwd) => {
  if (cwd !== undefined && !existsSync(cwd)) {
    throw new HubError(
      'unavailable',
      'the folder this source was added from, where its command runs, no longer exists. Add the source again from where it should run.',
      { detail: `the folder was ${cwd}` },
    );
  }
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
    // One message from the server at most this big, as for an HTTP source (the SDK's default is
    // 10 MB; said here so the bound is ours).
    maxBufferSize: DEFAULT_MAX_RESPONSE_BYTES,
    ...(cwd === undefined ? {} : { cwd }),
  });
  // The pid is read once the process runs: the SDK forgets it as soon as it starts closing, and
  // a server that never answered must still be ended.
  let pid: number | null = null;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid;
  };
  const kill = () => {
    if (pid === null) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { transport, stderr: transport.stderr, kill };
};

/**
 * The local hub's connector: HTTP and stdio MCP servers, its errors in the CLI's words, and
 * OpenAPI sources, whose documents it may also read from files.
 */
export function localConnector(options: Omit<McpConnectorOptions, 'launchStdio' | 'wording'>): KindConnector {
  return new KindConnector(
    new McpConnector({ ...options, launchStdio, wording: localWording }),
    new OpenApiConnector({
      fetch: options.fetch,
      privateAddresses: options.privateAddresses,
      readFile: readDocumentFile,
    }),
  );
}

/** An OpenAPI document from a file, refused past the size cap before it is read. */
async function readDocumentFile(path: string): Promise<string> {
  const { readFile, stat } = await import('node:fs/promises');
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw new HubError(
      'not_found',
      `could not read the OpenAPI document ${path}: ${(error as Error).message}. Check the path.`,
    );
  }
  if (size > MAX_DOCUMENT_BYTES) throw tooLarge(path, size);
  return readFile(path, 'utf8');
}
