/**
 * STAND-IN (cli-push branch): a minimal `openHostedClient` so `hub push` and `hub status` compile
 * and run before the sign-in helper's version (with `hub login`/`logout` and tokens in the secret
 * store) lands. That version replaces this file on merge; nothing here is meant to survive it.
 *
 * Until then the hosted hub and its token come from CAPABILITIES_HOSTED_URL and
 * CAPABILITIES_HOSTED_TOKEN; without them the person is not signed in.
 */
import type { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import type { HomePaths } from '../home.ts';
import type { HostedClient } from './hosted-api.ts';

/** The signed-in client of the hosted hub, or the error that says to sign in. */
export async function openHostedClient(
  _paths: HomePaths,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HostedClient> {
  const url = env.CAPABILITIES_HOSTED_URL?.trim();
  const token = env.CAPABILITIES_HOSTED_TOKEN?.trim();
  if (!url || !token) {
    throw new HubError(
      'unauthorized',
      'you are not signed in to a hosted hub; sign in with `capabilities hub login`, then try again',
    );
  }
  const origin = new URL(url).origin;
  const call = async <T>(path: string, schema: z.ZodType<T>, init: RequestInit): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${origin}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    } catch (cause) {
      throw new HubError('unavailable', `could not reach the hosted hub at ${origin}; check the URL`, {
        cause,
      });
    }
    const text = await response.text();
    if (!response.ok) {
      const message = errorMessage(text) ?? `the hosted hub answered ${response.status}`;
      const code =
        response.status === 401 ? 'unauthorized' : response.status === 409 ? 'conflict' : 'unavailable';
      throw new HubError(code, message);
    }
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new HubError(
        'unavailable',
        `the hosted hub at ${origin} answered in a shape this CLI does not know; update the CLI`,
      );
    }
    return parsed.data;
  };
  return {
    url: origin,
    get: (path, schema) => call(path, schema, { method: 'GET' }),
    post: (path, body, schema) => call(path, schema, { method: 'POST', body: JSON.stringify(body) }),
  };
}

/** The `error.message` of a JSON error answer, when there is one. */
function errorMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? body.error.message : undefined;
  } catch {
    return undefined;
  }
}
