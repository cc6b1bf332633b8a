/**
 * The CLI as an OAuth client, for the official SDK's `auth()`: a native app with a loopback
 * redirect URI (RFC 8252) and PKCE (the SDK's). One provider serves both sign-ins the CLI makes:
 * to a hosted hub (`hub login`, local/hosted/oauth-client.ts names it) and to a source that
 * signs in with OAuth (`hub add`, `hub auth`; upstream-sign-in.ts). It holds its state for one
 * process: the client registration (dynamic, or a pre-registered client given to it), the PKCE
 * verifier, the `state` of the authorization it started, what discovery found, and the tokens;
 * `onTokens` is told each time the SDK saves new tokens, so a refresh is kept at once.
 * `onAuthorize` is where the SDK's request to send the person's browser goes: the browser during
 * a sign-in, an error everywhere else (a refresh must never start a sign-in).
 */
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** Tokens as the CLI keeps them: with when the access token expires, and for how long it was granted. */
export interface KeptTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  issuer?: string;
  /** Milliseconds since the epoch when the access token stops working; absent when the server did not say. */
  expires_at?: number;
  /** `expires_in` in milliseconds; absent when the server did not say. */
  lifetime_ms?: number;
}

export interface LoopbackOAuthOptions {
  /** `http://127.0.0.1:<port>/callback`. */
  redirectUrl: string;
  /** What the CLI calls itself on the consent page. */
  clientName: string;
  client?: StoredOAuthClientInformation | undefined;
  tokens?: KeptTokens | undefined;
  onAuthorize: (authorizationUrl: URL) => void | Promise<void>;
  onTokens?: (tokens: KeptTokens) => void | Promise<void>;
  now?: () => number;
}

export class LoopbackOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  /** The `state` of the last authorization this client started. */
  lastState = '';
  /** Where the SDK last asked to send the person's browser. */
  authorizationUrl: URL | undefined;
  #client: StoredOAuthClientInformation | undefined;
  #tokens: KeptTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;
  readonly #options: LoopbackOAuthOptions;

  constructor(options: LoopbackOAuthOptions) {
    this.#options = options;
    this.redirectUrl = options.redirectUrl;
    this.#client = options.client;
    this.#tokens = options.tokens;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName,
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
  get keptTokens(): KeptTokens | undefined {
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
    const kept: KeptTokens = {
      access_token: tokens.access_token,
      token_type: tokens.token_type,
      ...(tokens.refresh_token === undefined ? {} : { refresh_token: tokens.refresh_token }),
      ...(tokens.scope === undefined ? {} : { scope: tokens.scope }),
      ...(tokens.issuer === undefined || tokens.issuer === null ? {} : { issuer: tokens.issuer }),
      ...(typeof tokens.expires_in === 'number'
        ? { expires_at: now + tokens.expires_in * 1000, lifetime_ms: tokens.expires_in * 1000 }
        : {}),
    };
    this.#tokens = kept;
    await this.#options.onTokens?.(kept);
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl;
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
