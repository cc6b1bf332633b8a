/**
 * The person's part of an OAuth sign-in, shared by `hub login` (a hosted hub) and `hub add` /
 * `hub auth` (a source that signs in with OAuth): the SDK's `auth()` registers the client where
 * needed and builds the authorization URL with PKCE; the person's browser opens it (the same way
 * as the approval page: $BROWSER or the system opener, with the address printed when no browser
 * opens or CAPABILITIES_OPEN_PAGES=0); the code that comes back to the loopback redirect with the
 * right `state` is redeemed by `auth()` again, which leaves the tokens with the provider. The
 * person is told what to do next when they cancel, and when nothing comes back in 5 minutes.
 */
import { auth } from '@modelcontextprotocol/client';
import { HubError } from '../../engine/errors.ts';
import { openInBrowser } from '../pages/browser.ts';
import type { LoopbackRedirect } from './loopback-redirect.ts';
import { SIGN_IN_TIMEOUT_MS } from './loopback-redirect.ts';
import type { LoopbackOAuthProvider } from './oauth-client.ts';

/** The person's part: where the browser goes and comes back, and what they are told. */
export interface BrowserWait {
  /** Where the provider's redirect URL listens. */
  redirect: LoopbackRedirect;
  /** What is signed in to, for the person ("https://hub.example.com"). */
  what: string;
  /** The command that starts again, for the person: "`capabilities hub login`". */
  again: string;
  /** For the browser opener ($BROWSER). */
  env: NodeJS.ProcessEnv;
  /** False: print the address instead of opening a browser (CAPABILITIES_OPEN_PAGES=0). */
  openBrowser?: boolean | undefined;
  /** A line for the person on stderr. */
  note: (text: string) => void;
}

export interface BrowserSignIn extends BrowserWait {
  provider: LoopbackOAuthProvider;
  /** The protected resource (the MCP endpoint). */
  serverUrl: URL;
  scope?: string | undefined;
  /** An error met on the way, as the person should see it. */
  failure: (error: unknown) => HubError;
  /** When the server asked for no sign-in: the error to show. */
  notAsked: () => HubError;
}

/** Runs the browser part of the sign-in; once it resolves, `provider` holds the tokens. */
export async function signInWithBrowser(sign: BrowserSignIn): Promise<void> {
  const { provider, serverUrl, scope } = sign;
  const started = await auth(provider, { serverUrl, ...(scope ? { scope } : {}) }).catch((error: unknown) => {
    throw sign.failure(error);
  });
  const authorizationUrl = provider.authorizationUrl;
  if (started !== 'REDIRECT' || !authorizationUrl) throw sign.notAsked();
  const callback = await awaitBrowser(sign, authorizationUrl, () => provider.lastState);
  await auth(provider, {
    serverUrl,
    ...(scope ? { scope } : {}),
    authorizationCode: callback.code,
    iss: callback.iss,
  }).catch((error: unknown) => {
    throw sign.failure(error);
  });
}

/**
 * Sends the person's browser to `authorizationUrl` and waits for it to come back with `state`:
 * the code to redeem, or a HubError saying the sign-in was not completed (cancelled, refused, or
 * nothing came back in time) and how to start again.
 */
export async function awaitBrowser(
  sign: BrowserWait,
  authorizationUrl: URL,
  state: () => string,
): Promise<{ code: string; iss: string | undefined }> {
  const arrival = sign.redirect.arrival(state);
  const opened = sign.openBrowser !== false && (await openInBrowser(authorizationUrl.href, sign.env));
  if (!opened) sign.note(`Open this address in a browser to sign in: ${authorizationUrl.href}`);
  sign.note(
    `Waiting for you to sign in to ${sign.what} in the browser (up to ${SIGN_IN_TIMEOUT_MS / 60_000} minutes)…`,
  );
  const callback = await arrival;
  if ('error' in callback) {
    const why = callback.description ? `${callback.error}: ${callback.description}` : callback.error;
    throw new HubError(
      'denied',
      `the sign-in to ${sign.what} was not completed (${why}); run ${sign.again} to try again`,
    );
  }
  return callback;
}
