/**
 * The HostedClient (hosted-api.ts) over the sign-in `hub login` kept: each call sends the access
 * token as a bearer token; an access token that has expired (or a call answered 401) is refreshed
 * first through the SDK's `auth()` with the refresh token, the new tokens kept at once, and the
 * call tried once more. Every failure is a HubError that says what to do next:
 *
 * - not signed in: run `hub login`; a refresh the server refuses: sign in again;
 * - the hub cannot be reached: check the address or that it is up;
 * - an error answer `{ error: { code, message, hint } }`: that error, the hint as its detail;
 * - an answer that is not JSON or not the shape asked for: not a capabilities hub (or a newer one).
 */
import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { HubError, type HubErrorCode } from '../../engine/errors.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import type { HomePaths } from '../home.ts';
import { openSecretStore } from '../secret-store.ts';
import type { HostedClient } from './hosted-api.ts';
import {
  fetchFailure,
  notAHub,
  notSignedIn,
  signedInElsewhere,
  signInExpired,
  unreachable,
} from './hosted-errors.ts';
import {
  accessExpired,
  HOSTED_CLIENT_SECRET_KEY,
  type HostedTokens,
  readHostedFile,
  readHostedTokens,
  writeHostedFile,
  writeHostedTokens,
} from './hosted-state.ts';
import { HostedOAuthProvider, resourceOf } from './oauth-client.ts';

const ERROR_CODES = [
  'not_found',
  'conflict',
  'invalid_input',
  'denied',
  'limit',
  'unauthorized',
  'schema_too_new',
  'corrupt',
  'unavailable',
  'internal',
] as const satisfies readonly HubErrorCode[];

/** The error answer of the hub's management API. */
const ErrorAnswer = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    hint: z.string().optional(),
  }),
});

export interface HostedClientOptions {
  /** Where the secret store's fallback notice goes; stderr unless told. */
  notice?: (text: string) => void;
  /** The secret store to use instead of opening the local one (tests). */
  secrets?: SecretStore;
  fetch?: FetchLike;
  now?: () => number;
}

/** The client of the hosted hub this home is signed in to; not signed in is a HubError. */
export async function openHostedClient(
  paths: HomePaths,
  env: NodeJS.ProcessEnv = process.env,
  options: HostedClientOptions = {},
): Promise<HostedClient> {
  const file = readHostedFile(paths.hostedFile);
  if (!file) throw notSignedIn();
  const notice = options.notice ?? ((text: string) => process.stderr.write(`${text}\n`));
  const secrets = options.secrets ?? openSecretStore(paths.envFile, notice, env);
  const kept = await readHostedTokens(secrets);
  if (!kept) throw notSignedIn();
  // The tokens go only to the hub they were issued for, whatever hosted.json says now.
  if (kept.hub !== file.url) throw signedInElsewhere(file.url, kept.hub);
  const secret = await secrets.get(HOSTED_CLIENT_SECRET_KEY);
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const url = file.url;
  const provider = new HostedOAuthProvider({
    redirectUrl: file.client.redirect_uris?.[0] ?? 'http://127.0.0.1/callback',
    client: { ...file.client, ...(secret ? { client_secret: secret } : {}) },
    tokens: kept,
    // A refresh that falls back to a new authorization: the sign-in is over; the person signs in again.
    onAuthorize: () => {
      throw signInExpired(url);
    },
    onTokens: async (tokens) => {
      await writeHostedTokens(secrets, { ...tokens, hub: url });
      // Marked in hosted.json, so a hub serving meanwhile reads them again to scrub them.
      writeHostedFile(paths.hostedFile, { ...file, tokensAt: new Date(now()).toISOString() });
    },
    now,
  });

  /** New tokens through the refresh token, or the HubError that says to sign in again. */
  const refresh = async (): Promise<HostedTokens> => {
    const before = provider.hostedTokens;
    if (!before?.refresh_token) throw signInExpired(url);
    try {
      await auth(provider, { serverUrl: resourceOf(url), fetchFn: send });
    } catch (error) {
      const reason = fetchFailure(error);
      if (reason !== undefined) throw unreachable(url, reason);
      throw signInExpired(url);
    }
    const after = provider.hostedTokens;
    if (!after || after.access_token === before.access_token) throw signInExpired(url);
    return after;
  };

  const call = async <T>(method: 'GET' | 'POST', path: string, body: unknown, schema: z.ZodType<T>) => {
    const target = new URL(path, url);
    const request = async (token: string): Promise<Response> => {
      try {
        return await send(target, {
          method,
          // Never re-sent elsewhere: a redirect would carry the token, and a push's secret values, on.
          redirect: 'error',
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          },
          ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
        });
      } catch (error) {
        throw unreachable(url, fetchFailure(error) ?? String(error));
      }
    };
    let tokens = provider.hostedTokens ?? kept;
    if (accessExpired(tokens, now())) tokens = await refresh();
    let answer = await request(tokens.access_token);
    if (answer.status === 401) {
      await answer.body?.cancel();
      tokens = await refresh();
      answer = await request(tokens.access_token);
      if (answer.status === 401) {
        await answer.body?.cancel();
        throw signInExpired(url);
      }
    }
    return parseAnswer(url, `${method} ${path}`, answer, schema);
  };

  return {
    url,
    get: (path, schema) => call('GET', path, undefined, schema),
    post: (path, body, schema) => call('POST', path, body, schema),
  };
}

/** The answer as `schema`, or the HubError it carries, or "not a capabilities hub". */
async function parseAnswer<T>(
  url: string,
  asked: string,
  answer: Response,
  schema: z.ZodType<T>,
): Promise<T> {
  const text = await answer.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notAHub(url, `its answer to ${asked} was ${answer.status}, not JSON`);
  }
  const error = ErrorAnswer.safeParse(json);
  if (error.success) {
    const { code, message, hint } = error.data.error;
    const known = (ERROR_CODES as readonly string[]).includes(code) ? (code as HubErrorCode) : 'internal';
    throw new HubError(known, message, hint === undefined ? undefined : { detail: hint });
  }
  if (!answer.ok) throw notAHub(url, `its answer to ${asked} was ${answer.status}`);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `field "${issue.path.join('.')}"` : 'the answer';
    throw notAHub(url, `its answer to ${asked} had ${field}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
