/**
 * The connector as the hosted hub runs it, inside workerd: the same SDK client over HTTP,
 * no way to start a local process, and the guard in front of every request.
 */
import { describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import { NO_CREDENTIALS } from '../../engine/connectors/connector.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import { hubErrorOf } from '../hub-error.ts';

const connector = new McpConnector({ version: 'test', connectTimeoutMs: 2_000, wording: hostedWording });

describe('the hosted connector', () => {
  it('refuses a stdio source with a clear message', async () => {
    const stdio = {
      kind: 'mcp-stdio' as const,
      namespace: 'memory',
      command: ['npx', '@modelcontextprotocol/server-memory'],
      env: {},
      consent: { command: ['npx', '@modelcontextprotocol/server-memory'], at: 0 },
      addedAt: 0,
      updatedAt: 0,
    };
    const error = await hubErrorOf(() => connector.listTools(stdio, NO_CREDENTIALS));
    expect(error.code).toBe('denied');
    expect(error.message).toContain('only a local hub can run');
  });

  it('reaches no host but the ones fixed at review', async () => {
    const http = {
      kind: 'mcp-http' as const,
      namespace: 'linear',
      url: 'https://mcp.linear.app/mcp',
      allowedHosts: ['api.linear.app'],
      addedAt: 0,
      updatedAt: 0,
    };
    const error = await hubErrorOf(() => connector.listTools(http, NO_CREDENTIALS));
    expect(error.code).toBe('denied');
    // The person is shown the hosts (the detail); the message, which may reach the model, names none.
    expect(`${error.message} ${error.detail}`).toContain('may reach only api.linear.app');
    expect(error.message).not.toContain('linear.app');
  });
});
