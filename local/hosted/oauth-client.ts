/**
 * The CLI as an OAuth client of a hosted hub: the loopback client (local/oauth/oauth-client.ts)
 * named "capabilities CLI", asking for the hub's scope and the configure scope, its tokens kept
 * as HostedTokens.
 */
import { type LoopbackOAuthOptions, LoopbackOAuthProvider } from '../oauth/oauth-client.ts';
import { CONFIGURE_SCOPE } from './hosted-api.ts';
import type { HostedTokens } from './hosted-state.ts';

/** What the CLI calls itself on the consent page. */
export const CLIENT_NAME = 'capabilities CLI';
/** The scopes the CLI asks for: the hub's own (MCP) and changing its configuration. */
export const CLI_SCOPE = `hub ${CONFIGURE_SCOPE}`;

/** The MCP resource of a hosted hub at `url` (its origin): where discovery starts. */
export const resourceOf = (url: string): URL => new URL('/mcp', url);

export type HostedOAuthOptions = Omit<LoopbackOAuthOptions, 'clientName' | 'tokens' | 'onTokens'> & {
  tokens?: HostedTokens | undefined;
  onTokens?: (tokens: HostedTokens) => void | Promise<void>;
};

export class HostedOAuthProvider extends LoopbackOAuthProvider {
  constructor(options: HostedOAuthOptions) {
    super({ ...options, clientName: CLIENT_NAME });
  }

  /** The tokens as kept (with their expiry), for the caller. */
  get hostedTokens(): HostedTokens | undefined {
    return this.keptTokens;
  }
}
