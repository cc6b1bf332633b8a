/**
 * Where the person's browser comes back to during a sign-in (RFC 8252 §7.3): `hub login` to a
 * hosted hub, and `hub add` / `hub auth` of a source that signs in with OAuth. A node:http server
 * on 127.0.0.1 only, on a port the system picks, answering `/callback` and nothing else. Only an
 * arrival with the `state` of the authorization the CLI started counts; anything else is told it
 * is not the sign-in this command waits for, and waiting goes on. The page the browser sees is
 * plain text and says where to look next. It gives up after `timeoutMs` (5 minutes).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HubError } from '../../engine/errors.ts';

/** How long a sign-in waits for the browser. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What the browser brought back: a code to redeem, or the server's refusal. */
export type Callback =
  | { code: string; iss: string | undefined }
  | { error: string; description: string | undefined };

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly url: string;
  /** The arrival with `state`, or a HubError once `timeoutMs` has passed. */
  arrival(state: () => string, timeoutMs?: number): Promise<Callback>;
  close(): Promise<void>;
}

const PLAIN = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/** `command` is what the person runs to start again, named on the pages and in the timeout. */
export async function startLoopbackRedirect(command = 'capabilities hub login'): Promise<LoopbackRedirect> {
  let expected: (() => string) | undefined;
  let deliver: ((callback: Callback) => void) | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, PLAIN).end('Not found.\n');
      return;
    }
    const state = url.searchParams.get('state');
    if (!deliver || !expected || state === null || state !== expected()) {
      response
        .writeHead(400, PLAIN)
        .end(`This is not the sign-in \`${command}\` is waiting for. Start again from the terminal.\n`);
      return;
    }
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (code) {
      response.writeHead(200, PLAIN).end('Signed in; you can close this window.\n');
      deliver({ code, iss: url.searchParams.get('iss') ?? undefined });
    } else {
      response
        .writeHead(200, PLAIN)
        .end('The sign-in was not completed; see the terminal. You can close this window.\n');
      deliver({
        error: error ?? 'no code',
        description: url.searchParams.get('error_description') ?? undefined,
      });
    }
    deliver = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/callback`,
    arrival(state, timeoutMs = SIGN_IN_TIMEOUT_MS) {
      expected = state;
      const span =
        timeoutMs % 60_000 === 0 ? `${timeoutMs / 60_000} minutes` : `${Math.ceil(timeoutMs / 1000)} s`;
      return new Promise<Callback>((resolve, reject) => {
        const timer = setTimeout(() => {
          deliver = undefined;
          reject(
            new HubError(
              'unavailable',
              `no sign-in came back from the browser within ${span}; run \`${command}\` again`,
            ),
          );
        }, timeoutMs);
        deliver = (callback) => {
          clearTimeout(timer);
          resolve(callback);
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
