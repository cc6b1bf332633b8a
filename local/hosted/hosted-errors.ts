/**
 * The errors a person sees when the CLI talks to a hosted hub, in one place so `hub login`,
 * `hub logout` and every call through the HostedClient say the same thing: each names the hub's
 * URL and the next step (sign in again, check the address, update the CLI).
 */
import { HubError, isHubError } from '../../engine/errors.ts';

export const notSignedIn = (): HubError =>
  new HubError('unauthorized', 'not signed in to a hosted hub; run `capabilities hub login`');

export const signInExpired = (url: string): HubError =>
  new HubError('unauthorized', `your sign-in to ${url} expired; run \`capabilities hub login\` again`);

/** hosted.json names a hub the kept tokens were not issued for: they are not sent there. */
export const signedInElsewhere = (url: string, issuedFor: string | undefined): HubError =>
  new HubError(
    'unauthorized',
    `the sign-in kept here is not for ${url}${issuedFor ? ` (it was made for ${issuedFor})` : ''}, so nothing was sent; run \`capabilities hub login --url ${url}\` to sign in there`,
  );

export const unreachable = (url: string, reason: string): HubError =>
  new HubError(
    'unavailable',
    `could not reach ${url} (${reason}); check the address, or that the hosted hub is up`,
  );

export const notAHub = (url: string, why: string): HubError =>
  new HubError(
    'unavailable',
    `${url} did not answer as a capabilities hub (${why}); check the address, or update the CLI if the hub is newer`,
  );

/** Why a fetch failed, in a few words: the system's code (ECONNREFUSED, ENOTFOUND) when there is one. */
export function fetchFailure(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const cause = (error as { cause?: unknown }).cause;
  if (cause && typeof cause === 'object') {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string') return message;
  }
  return error.message;
}

/**
 * An error met while signing in or out, as the person should see it: a HubError as it is, a failed
 * fetch as "could not reach", anything else (an OAuth error, metadata that is not there) as "did
 * not answer as a capabilities hub".
 */
export function hostedFailure(url: string, error: unknown): HubError {
  if (isHubError(error)) return error;
  const reason = fetchFailure(error);
  if (reason !== undefined) return unreachable(url, reason);
  return notAHub(url, firstLine(error instanceof Error ? error.message : String(error)));
}

/** The first line of `text`, cut to 160 characters: a server's error page is no message. */
export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]?.trim() ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
