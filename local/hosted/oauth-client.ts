/**
 * The CLI as an OAuth client of a hosted hub, for the official SDK's `auth()`: a public client
 * named "capabilities CLI" with a loopback redirect URI (RFC 8252), asking for the hub's scope and
 * the configure scope, with PKCE (the SDK's). It holds its state for one process: the client
 * registration, the PKCE verifier, the `state` of the authorization it started, what discovery
 * found, and the tokens; `onTokens` is told each time the SDK saves new tokens, so a refresh is
 * kept at once. `onAuthorize` is where the SDK's request to send the person's browser goes: the
 * browser during `hub login`, an error everywhere else (a refresh must never start a sign-in).
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { CONFIGURE_SCOPE } from './hosted-api.ts';
import type { HostedTokens } from './hosted-state.ts';

/** What the CLI calls itself on the consent page. */
export const CLIENT_NAME = 'capabilities CLI';
/** The scopes the CLI asks for: the hub's own (MCP) and changing its configuration. */
export const CLI_SCOPE = `hub ${CONFIGURE_SCOPE}`;

/** The MCP resource of a hosted hub at `url` (its origin): where discovery starts. */
export const resourceOf = (url: string): URL => new URL('/mcp', url);

export interface HostedOAuthOptions {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  client?: StoredOAuthClientInformation | undefined;
  tokens?: HostedTokens | undefined;
  onAuthorize: (authorizationUrl: URL) => void | Promise<void>;
  onTokens?: (tokens: HostedTokens) => void | Promise<void>;
  now?: () => number;
}

export class HostedOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  /** The `state` of the last authorization this client started. */
  lastState = '';
  #client: StoredOAuthClientInformation | undefined;
  #tokens: HostedTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;
  readonly #options: HostedOAuthOptions;

  constructor(options: HostedOAuthOptions) {
    this.#options = options;
    this.redirectUrl = options.redirectUrl;
    this.#client = options.client;
    this.#tokens = options.tokens;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#client;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.#client = information;
  }

  /** The tokens as kept (with their expiry), for the caller. */
  get hostedTokens(): HostedTokens | undefined {
    return this.#tokens;
  }

  tokens(): StoredOAuthTokens | undefined {
    const kept = this.#tokens;
    if (!kept) return undefined;
    return {
      access_token: kept.access_token,
      token_type: kept.token_type,
      ...(kept.refresh_token === undefined ? {} : { refresh_token: kept.refresh_token }),
      ...(kept.scope === undefined ? {} : { scope: kept.scope }),
      ...(kept.issuer === undefined ? {} : { issuer: kept.issuer }),
    };
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = (this.#options.now ?? Date.now)();
    const kept: HostedTokens = {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.refresh_token === undefined ? {} : { refresh_token: tokens.refresh_token }),
      ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
      ...(tokens.issuer === undefined || tokens.issuer === null ? {} : { issuer: tokens.issuer }),
      ...(typeof tokens.expires_in === 'number' ? { expires_at: now + tokens.expires_in * 1000 } : {}),
    };
    this.#tokens = kept;
    await this.#options.onTokens?.(kept);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    await this.#options.onAuthorize(authorizationUrl);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
}
