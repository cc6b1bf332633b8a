/**
 * `hub login` and `hub logout` underneath: signing the CLI in to a hosted hub as one more OAuth
 * client of it, and out again.
 *
 * Sign-in: a loopback redirect on 127.0.0.1, discovery of the hub's authorization server from
 * `<url>/mcp`, then the browser sign-in every OAuth sign-in of the CLI shares
 * (local/oauth/browser-sign-in.ts): the CLI is registered for this exact redirect URI (the port
 * changes each time, and not every server matches loopback ports loosely), the person signs in
 * and allows, the code is redeemed. Tokens go to the secret store, the client and the URL to
 * hosted.json; nothing is kept until the sign-in has succeeded.
 *
 * Sign-out: the refresh token (which carries the grant) is revoked at the server's
 * revocation_endpoint (RFC 7009), then the tokens and hosted.json are forgotten, even when the
 * server cannot be reached; the caller says then that the tokens stay valid until they expire.
 */
import { discoverOAuthServerInfo, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { HubError } from '../../engine/errors.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import type { HomePaths } from '../home.ts';
import { signInWithBrowser } from '../oauth/browser-sign-in.ts';
import { startLoopbackRedirect } from '../oauth/loopback-redirect.ts';
import { revokeToken } from '../oauth/revoke-token.ts';
import { fetchFailure, hostedFailure, notAHub } from './hosted-errors.ts';
import {
  forgetHostedSecrets,
  HOSTED_CLIENT_SECRET_KEY,
  type HostedClientInfo,
  type HostedFile,
  type HostedTokens,
  readHostedFile,
  readHostedTokens,
  removeHostedFile,
  writeHostedFile,
  writeHostedTokens,
} from './hosted-state.ts';
import { CLI_SCOPE, HostedOAuthProvider, resourceOf } from './oauth-client.ts';

export interface SignInDeps {
  paths: HomePaths;
  secrets: SecretStore;
  /** For the browser opener ($BROWSER). */
  env: NodeJS.ProcessEnv;
  /** False: print the address instead of opening a browser (CAPABILITIES_OPEN_PAGES=0). */
  openBrowser?: boolean;
  /** A line for the person on stderr. */
  note: (text: string) => void;
  now?: () => number;
}

/**
 * The hosted hub's URL as the CLI keeps it: its origin. https, or http on this machine (a hub
 * under `wrangler dev`); anything else is refused before anything is sent.
 */
export function hostedOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new HubError(
      'invalid_input',
      `${input} is not a URL; pass the hosted hub's address, like https://hub.example.com`,
    );
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new HubError(
      'invalid_input',
      `${input} is not an https address; a hosted hub is reached over https (http only on this machine)`,
    );
  }
  return url.origin;
}

/** Signs in to the hosted hub at `url` (an origin) and keeps the sign-in; resolves once kept. */
export async function signIn(url: string, deps: SignInDeps): Promise<HostedFile> {
  const now = deps.now ?? Date.now;
  const redirect = await startLoopbackRedirect();
  try {
    const provider = new HostedOAuthProvider({ redirectUrl: redirect.url, onAuthorize: () => {}, now });
    const serverUrl = resourceOf(url);
    // Discovery first, so a server that is no hub is told apart before anything is registered;
    // what it found is handed to auth(), which then asks no second time.
    const found = await discoverOAuthServerInfo(serverUrl).catch((error: unknown) => {
      throw hostedFailure(url, error);
    });
    if (!found.resourceMetadata || !found.authorizationServerMetadata) {
      throw notAHub(url, `it publishes no OAuth metadata for ${serverUrl.href}`);
    }
    provider.saveDiscoveryState(found);
    await signInWithBrowser({
      provider,
      redirect,
      serverUrl,
      scope: CLI_SCOPE,
      what: url,
      again: '`capabilities hub login`',
      failure: (error) => hostedFailure(url, error),
      notAsked: () => notAHub(url, 'it did not ask for a sign-in'),
      env: deps.env,
      openBrowser: deps.openBrowser,
      note: deps.note,
    });
    const tokens = provider.hostedTokens;
    const client = provider.clientInformation();
    if (!tokens || !client) throw notAHub(url, 'it granted no token');
    const { client_secret: secret, ...kept } = client as StoredOAuthClientInformation & {
      client_secret?: string;
    };
    // A sign-in this one replaces is revoked where it can be (its grant would linger otherwise).
    const former = formerSignIn(deps.paths.hostedFile);
    const formerTokens = former ? await readHostedTokens(deps.secrets) : undefined;
    const formerSecret = former ? await deps.secrets.get(HOSTED_CLIENT_SECRET_KEY) : undefined;
    await forgetHostedSecrets(deps.secrets);
    if (secret) await deps.secrets.set(HOSTED_CLIENT_SECRET_KEY, secret);
    await writeHostedTokens(deps.secrets, { ...tokens, hub: url });
    const file: HostedFile = {
      url,
      client: kept as HostedClientInfo,
      signedInAt: new Date(now()).toISOString(),
    };
    writeHostedFile(deps.paths.hostedFile, file);
    if (former && formerTokens) await revokeKept(former, formerTokens, formerSecret);
    return file;
  } finally {
    await redirect.close();
  }
}

/** The sign-in kept before this one; a hosted.json that cannot be read is simply replaced. */
function formerSignIn(path: string): HostedFile | undefined {
  try {
    return readHostedFile(path);
  } catch {
    return undefined;
  }
}

/** What `signOut` did. */
export type SignOut =
  | { signedIn: false }
  | { signedIn: true; url: string; revoked: true }
  | { signedIn: true; url: string; revoked: false; reason: string };

/** Revokes the kept sign-in where it can, then forgets it whatever the server said. */
export async function signOut(deps: SignInDeps): Promise<SignOut> {
  const file = readHostedFile(deps.paths.hostedFile);
  const tokens = await readHostedTokens(deps.secrets);
  if (!file) {
    if (tokens) await forgetHostedSecrets(deps.secrets);
    return { signedIn: false };
  }
  let outcome: SignOut = { signedIn: true, url: file.url, revoked: false, reason: 'no tokens were kept' };
  if (tokens) {
    const reason = await revokeKept(file, tokens, await deps.secrets.get(HOSTED_CLIENT_SECRET_KEY));
    outcome =
      reason === undefined ? { signedIn: true, url: file.url, revoked: true } : { ...outcome, reason };
  }
  await forgetHostedSecrets(deps.secrets);
  removeHostedFile(deps.paths.hostedFile);
  return outcome;
}

/**
 * Revokes a kept sign-in at its hub's revocation endpoint, found by discovery, with the request
 * every sign-in the CLI lets go of shares (revoke-token.ts): the refresh token (which carries the
 * grant, access tokens and all), else the access token. Undefined when it did, else why not.
 */
async function revokeKept(
  file: HostedFile,
  tokens: HostedTokens,
  secret: string | undefined,
): Promise<string | undefined> {
  let endpoint: unknown;
  try {
    const info = await discoverOAuthServerInfo(resourceOf(file.url));
    const metadata = info.authorizationServerMetadata;
    endpoint = metadata && 'revocation_endpoint' in metadata ? metadata.revocation_endpoint : undefined;
  } catch (error) {
    const reason = fetchFailure(error);
    return reason === undefined
      ? `it did not answer as a capabilities hub: ${error instanceof Error ? error.message : String(error)}`
      : `could not reach it: ${reason}`;
  }
  if (typeof endpoint !== 'string') return 'it offers no revocation endpoint';
  return revokeToken({
    endpoint,
    token: tokens.refresh_token ?? tokens.access_token,
    hint: tokens.refresh_token ? 'refresh_token' : 'access_token',
    clientId: file.client.client_id,
    clientSecret: secret,
  });
}
