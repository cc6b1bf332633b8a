/**
 * One SourceConnector for every kind of source: MCP servers (stdio, HTTP) go to the MCP
 * connector, OpenAPI sources to the OpenAPI connector. Hosts hand the engine this one.
 */
import type { Source } from '../contracts/sources.ts';
import type { CallRequest, Credentials, ListedTools, SourceConnector } from './connector.ts';
import type { PrivateAddresses } from './guarded-fetch.ts';
import type { McpCallResult } from './tool-result.ts';

export class KindConnector implements SourceConnector {
  readonly #mcp: SourceConnector;
  readonly #openapi: SourceConnector;

  constructor(mcp: SourceConnector, openapi: SourceConnector) {
    this.#mcp = mcp;
    this.#openapi = openapi;
  }

  get privateAddresses(): PrivateAddresses | undefined {
    return this.#mcp.privateAddresses;
  }

  #for(source: Source): SourceConnector {
    return source.kind === 'openapi' ? this.#openapi : this.#mcp;
  }

  listTools(source: Source, credentials: Credentials): Promise<ListedTools> {
    return this.#for(source).listTools(source, credentials);
  }

  callTool(source: Source, credentials: Credentials, request: CallRequest): Promise<McpCallResult> {
    return this.#for(source).callTool(source, credentials, request);
  }

  onToolsChanged(listener: (namespace: string) => void): void {
    this.#mcp.onToolsChanged(listener);
    this.#openapi.onToolsChanged(listener);
  }

  health(namespace: string): { running: boolean; restarts: number; stderrTail: string } | undefined {
    return this.#mcp.health(namespace);
  }

  async close(): Promise<void> {
    await Promise.all([this.#mcp.close(), this.#openapi.close()]);
  }
}
