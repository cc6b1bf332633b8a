/**
 * The OAuth side of an MCP client on a person's computer, for end-to-end tests with the official
 * SDK client: an in-memory `OAuthClientProvider` (dynamic registration, PKCE verifier, tokens,
 * a fresh `state` per authorization, what discovery found) and the loopback redirect URI it registers, a node:http
 * server on 127.0.0.1 that captures where the browser lands (`code`, `state`, `iss` or `error`).
 * The provider never opens anything: it keeps the authorization URL for the test's browser.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  url: string;
  /** The next URL the browser lands on at the redirect URI. */
  next(): Promise<URL>;
  close(): Promise<void>;
}

export async function startLoopbackRedirect(): Promise<LoopbackRedirect> {
  const waiting: Array<(url: URL) => void> = [];
  const arrived: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      // The browser's own asks (a favicon) are no answer.
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('The app got its answer; you can close this window.');
    const full = new URL(`${url.pathname}${url.search}`, origin);
    const take = waiting.shift();
    if (take) take(full);
    else arrived.push(full);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An MCP client's OAuth state, in memory, with a loopback redirect URI. */
export class LoopbackOAuthProvider implements OAuthClientProvider {
  #client: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;
  /** The `state` of the last authorization request. */
  lastState = '';
  /** Where the SDK asked to send the person's browser, last. */
  authorizationUrl: URL | undefined;

  readonly redirectUrl: string;
  readonly clientName: string;

  constructor(redirectUrl: string, clientName: string) {
    this.redirectUrl = redirectUrl;
    this.clientName = clientName;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
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

  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  /** What discovery found, kept with the verifier so the callback is checked against the same server (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
}
