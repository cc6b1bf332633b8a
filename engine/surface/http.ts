/**
 * The surface over Streamable HTTP, as a web-standard `fetch` handler (Request → Response) that
 * the one Hono app mounts at /mcp, on the local hub and in the Worker alike. Stateless: every
 * request gets a fresh McpServer from the same factory, 2026-07-28 requests on the modern path
 * and 2025-era ones through the SDK's stateless fallback (no session ids, GET and DELETE answer
 * 405). A server costs a few registrations, since the schemas are built once per process.
 *
 * The handler does no authentication and no Host/Origin checks: the app does both before it
 * hands a request here.
 */
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createMcpServer, type SurfaceDeps } from './create-mcp-server.ts';

/** The largest request body read: `code` is at most 64 KB, and JSON escaping can double it. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** A fetch handler serving the surface; `close()` aborts exchanges in flight. */
export function createMcpHttpHandler(deps: SurfaceDeps): McpHttpHandler {
  return createMcpHandler(() => createMcpServer(deps), {
    legacy: 'stateless',
    maxRequestBodySize: MAX_REQUEST_BYTES,
    onerror: (error) => deps.log?.('the MCP endpoint refused or dropped a request', error.message),
  });
}
