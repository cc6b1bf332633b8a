/**
 * The only fetch an HTTP source gets (invariant I4): requests go only to the hosts fixed when
 * the source was reviewed; a redirect is followed only within the same origin, so credentials
 * never cross to another origin, and a request that changes something is repeated only where the
 * redirect asks for it as it was (307, 308), never after a 301, 302 or 303 that may follow its
 * effect (the redirect is then the answer); a response body larger than the cap is cut off with
 * an error.
 * Where the host refuses private places (the hosted hub: server-side request forgery), no
 * request and no redirect goes to a private, loopback or link-local address (private-address.ts).
 * Runtime-neutral: it wraps whatever `fetch` the host has.
 */
import { HubError, withDelivery } from '../errors.ts';
import { privateAddressReason } from './private-address.ts';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface FetchGuard {
  /** Host names (optionally with :port) the source may reach. */
  allowedHosts: readonly string[];
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** How many same-origin redirects to follow. */
  maxRedirects?: number;
  /** Whether requests may go to private places; `allow` by default (the local hub). */
  privateAddresses?: PrivateAddresses;
}

/**
 * Whether a hub's sources may reach private, loopback and link-local addresses: the local hub
 * allows it (its sources often run on the same machine); the hosted hub refuses it, unless a
 * development setting allows it.
 */
export type PrivateAddresses = 'refuse' | 'allow';

/**
 * The refusal of `url` when private places are refused and it names one; undefined otherwise.
 * `refused` starts the message: "refused a request to", "cannot add a source at".
 */
export function privateAddressRefusal(
  url: URL,
  privateAddresses: PrivateAddresses | undefined,
  refused: string,
): HubError | undefined {
  if (privateAddresses !== 'refuse') return undefined;
  const reason = privateAddressReason(url);
  if (reason === undefined) return undefined;
  return new HubError(
    'denied',
    `${refused} a private address (${reason}): this hub reaches only servers on the public ` +
      'internet. Serve the source at a public https:// address.',
    {
      detail:
        `the address was ${url.host} (${reason}). A hub run for development may reach private ` +
        'addresses when its ALLOW_PRIVATE_UPSTREAMS setting is 1; never set it on a hub others use.',
    },
  );
}

/** Redirect statuses that ask for the same request, method and body, at the new place. */
const RESEND: ReadonlySet<number> = new Set([307, 308]);
/** Methods a redirect may repeat whatever its status: they change nothing. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** 16 MB: far above any sane tool result, small enough that a runaway server cannot exhaust the hub. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return allowedHosts.some((allowed) => {
    const a = allowed.toLowerCase();
    return a === host || a === hostname;
  });
}

export function guardedFetch(
  guard: FetchGuard,
  base: FetchLike = (url, init) => fetch(url, init),
): FetchLike {
  return async (input, init) => {
    let url = new URL(String(input));
    const origin = url.origin;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new HubError('denied', `refused a ${url.protocol} URL: sources speak HTTP(S) only`, {
          detail: `the URL was ${url.href}`,
          delivery: hop === 0 ? 'unsent' : 'answered',
        });
      }
      // Refused before this hop's request: on the first hop nothing was sent; on a later one the
      // server already answered (with a redirect).
      const delivery = hop === 0 ? 'unsent' : 'answered';
      const refused = privateAddressRefusal(url, guard.privateAddresses, 'refused a request to');
      if (refused) throw withDelivery(refused, delivery);
      if (!isAllowedHost(url, guard.allowedHosts)) {
        throw new HubError(
          'denied',
          'refused a request to a host this source may not reach. Add the source again to review a new host.',
          {
            detail: `the request went to ${url.host}; this source may reach only ${guard.allowedHosts.join(', ')}`,
            delivery,
          },
        );
      }
      let response: Response;
      try {
        response = await base(url, { ...init, redirect: 'manual' });
      } catch (error) {
        // Past the first hop, a server already took the request and answered with a redirect:
        // however this hop failed, the request was sent.
        if (hop === 0) throw error;
        throw new HubError('unavailable', `the redirect from ${origin} failed to answer`, {
          cause: error,
          detail: `the request went on to ${url.href}`,
          delivery: 'unknown',
        });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url);
        const redirect = privateAddressRefusal(next, guard.privateAddresses, 'refused a redirect to');
        if (redirect) {
          await response.body?.cancel();
          throw withDelivery(redirect, 'answered');
        }
        if (next.origin !== origin) {
          await response.body?.cancel();
          throw new HubError(
            'denied',
            "refused a redirect to another origin: credentials never cross origins. Update the source's URL to the new origin.",
            { detail: `the redirect went from ${origin} to ${next.origin}`, delivery: 'answered' },
          );
        }
        // A request with a body is sent again only where the status says to send it as it was
        // (307, 308): after a 301, 302 or 303 the server may have acted on it, so that is its
        // answer. A redirect the hub would refuse is refused whatever the status, saying why.
        const resent = RESEND.has(response.status) || SAFE_METHODS.has((init?.method ?? 'GET').toUpperCase());
        if (!resent) return capBody(response, guard.maxResponseBytes, url.host);
        if (hop >= (guard.maxRedirects ?? 5))
          throw new HubError('unavailable', 'too many redirects', {
            detail: `from ${origin}`,
            delivery: 'answered',
          });
        await response.body?.cancel();
        url = next;
        continue;
      }
      return capBody(response, guard.maxResponseBytes, url.host);
    }
  };
}

/** The same response with a body that errors once it passes `limit` bytes. */
function capBody(response: Response, limit: number, host: string): Response {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    void response.body?.cancel();
    throw new HubError(
      'limit',
      `the server sent a response of ${declared} bytes, over the ${limit}-byte cap`,
      { detail: `from ${host}`, delivery: 'answered' },
    );
  }
  if (!response.body) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          controller.error(
            new HubError('limit', `the server sent more than the ${limit}-byte response cap`, {
              detail: `from ${host}`,
              delivery: 'answered',
            }),
          );
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
