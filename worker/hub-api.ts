/**
 * The hosted hub's management API (HOSTED_PATHS of engine/contracts/configuration.ts, under `/mcp/hub/`):
 * `POST plan` and `POST apply` take a `hub push`, `GET status` answers `hub status`. The OAuth
 * provider has already checked the token; this file lets through only a person's token that
 * carries `hub:configure` (which the CLI's `hub login` asks for and an MCP agent never does), never
 * the self-hosting HUB_TOKEN (no person stands behind it), and bodies up to MAX_PUSH_BYTES. Each
 * call is answered by the grant's own HubObject over RPC; a HubError becomes
 * `{ "error": { "code", "message", "hint"? } }` with its HTTP status, anything else a generic 500.
 */
import { insufficientScope, type OAuthResourceAuth } from '@cloudflare/workers-oauth-provider';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HubObject } from '../durable-objects/hub-object.ts';
import { CONFIGURE_SCOPE, HOSTED_PATHS } from '../engine/contracts/configuration.ts';
import type { HubErrorCode } from '../engine/errors.ts';
import type { HubAnswer } from '../engine/hub-answer.ts';
import type { GrantProps } from './oauth.ts';

/**
 * The largest request body the API reads: a push with its manifests and secrets fits far below it,
 * and an apply carries the files of the skills it adds or changes (1 MiB each at most, in base64).
 */
export const MAX_PUSH_BYTES = 16 * 1024 * 1024;

/** The prefix every management path shares (`/mcp/hub/…`). */
export const HUB_API_PREFIX = '/mcp/hub/';

/** What the provider verified about the request's token. */
export interface HubApiGrant {
  props: GrantProps;
  auth: OAuthResourceAuth;
}

/** The HTTP status of each HubError code. `corrupt` and `internal` answer a generic 500. */
const STATUS: Record<HubErrorCode, ContentfulStatusCode> = {
  invalid_input: 400,
  unauthorized: 401,
  denied: 403,
  not_found: 404,
  conflict: 409,
  schema_too_new: 409,
  limit: 413,
  unavailable: 503,
  corrupt: 500,
  internal: 500,
};

const GENERIC = {
  code: 'internal',
  message: 'the hosted hub could not answer this request',
  hint: 'try again; if it keeps failing, report it with the time it happened',
} as const;

interface ApiError {
  code: HubErrorCode;
  message: string;
  hint?: string | undefined;
}

function failed(c: Context, error: ApiError, headers?: Record<string, string>): Response {
  const status = STATUS[error.code];
  const body = status === 500 ? GENERIC : error;
  return c.json({ error: body }, status, { 'Cache-Control': 'no-store', ...headers });
}

/** The answer of the hub's object as HTTP: its value, or its HubError with the status of its code. */
async function answered<T>(c: Context, answer: Promise<HubAnswer<T>>): Promise<Response> {
  let settled: HubAnswer<T>;
  try {
    settled = await answer;
  } catch (error) {
    // Not a HubError: the runtime's own, which may say anything; the person gets the generic one.
    console.error('the management API failed', error instanceof Error ? error.message : error);
    return failed(c, GENERIC);
  }
  if (settled.ok) return c.json(settled.value as object, 200, { 'Cache-Control': 'no-store' });
  return failed(c, { code: settled.code, message: settled.message, hint: settled.detail });
}

/** The request body as JSON, or an `invalid_input` answer. */
async function jsonBody(c: Context): Promise<{ body: unknown } | { refused: Response }> {
  try {
    return { body: await c.req.json() };
  } catch {
    return {
      refused: failed(c, {
        code: 'invalid_input',
        message: 'the request body is not JSON',
        hint: 'send the configuration as `capabilities hub push` does',
      }),
    };
  }
}

/** Serves one request under HUB_API_PREFIX for the grant's hub, `hub`. */
export function serveHubApi(
  request: Request,
  grant: HubApiGrant,
  hub: DurableObjectStub<HubObject>,
): Promise<Response> {
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (grant.props.selfHosted) {
      return failed(c, {
        code: 'denied',
        message:
          "the self-hosting HUB_TOKEN reaches only the hub's MCP endpoint: it has no person behind it to change the hub's configuration",
        hint: 'sign in as a person with `capabilities hub login --url <this hub>`',
      });
    }
    if (!grant.auth.scope.includes(CONFIGURE_SCOPE)) {
      const challenge = insufficientScope(grant.auth, [CONFIGURE_SCOPE]).headers.get('WWW-Authenticate');
      return failed(
        c,
        {
          code: 'denied',
          message: `this token may use the hub over MCP but not change its configuration: it lacks the ${CONFIGURE_SCOPE} scope`,
          hint: 'sign in with `capabilities hub login`, which asks for it',
        },
        challenge ? { 'WWW-Authenticate': challenge } : undefined,
      );
    }
    await next();
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_PUSH_BYTES,
      onError: (c) =>
        failed(c, {
          code: 'limit',
          message: `the request is larger than ${MAX_PUSH_BYTES} bytes`,
          hint: 'a configuration this large cannot be pushed in one request; push only the sources you need hosted',
        }),
    }),
  );

  app.post(HOSTED_PATHS.plan, async (c) => {
    const read = await jsonBody(c);
    return 'refused' in read ? read.refused : answered(c, hub.configurationPlan(read.body));
  });

  app.post(HOSTED_PATHS.apply, async (c) => {
    const read = await jsonBody(c);
    return 'refused' in read ? read.refused : answered(c, hub.configurationApply(read.body));
  });

  app.get(HOSTED_PATHS.status, (c) => answered(c, hub.hostedStatus(grant.props.login)));

  app.notFound((c) =>
    failed(c, {
      code: 'not_found',
      message: `no ${c.req.method} ${new URL(c.req.url).pathname} here`,
      hint: `the hub's API is POST ${HOSTED_PATHS.plan}, POST ${HOSTED_PATHS.apply} and GET ${HOSTED_PATHS.status}; update the CLI if it asked for another`,
    }),
  );

  return Promise.resolve(app.fetch(request));
}
