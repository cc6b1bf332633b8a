/**
 * Starts a stdio MCP server for the local hub: the SDK's StdioClientTransport with the SDK's
 * safe default environment (PATH, HOME, …) plus the source's own and its connection's
 * variables, and stderr piped so supervision can keep its tail.
 */
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  McpConnector,
  type McpConnectorOptions,
  type StdioLauncher,
} from '../../engine/sources/mcp-connector.ts';

export const launchStdio: StdioLauncher = ([command, ...args], env) => {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  return { transport, stderr: transport.stderr };
};

/** The local hub's connector: HTTP and stdio sources. */
export function localConnector(options: Omit<McpConnectorOptions, 'launchStdio'>): McpConnector {
  return new McpConnector({ ...options, launchStdio });
}
