/**
 * The hosted hub's management API as the CLI reaches it: the paths under the hub's MCP resource
 * (`<url>/mcp/hub/…`, where the OAuth token the CLI holds is good) and the one interface the
 * commands `push` and `status` use to call them. `hub login` makes the client (sign-in.ts, with
 * its tokens in the secret store); tests make one over a stand-in.
 */
import type { z } from 'zod';

/** The hosted hub a person signs in to when `hub login` is given no --url. */
export const DEFAULT_HOSTED_URL = 'https://hub.capabilities.sh';

/** The API's paths and the scope it needs are the hosted hub's contract: one definition, beside the plan's. */
export { CONFIGURE_SCOPE, HOSTED_PATHS } from '../../engine/contracts/configuration.ts';

/**
 * A signed-in client of one hosted hub. Each call sends the access token (refreshed first when it
 * has expired) and parses the answer with `schema`; a failure is a HubError that says what to do
 * (sign in again, check the URL, update the CLI), never a raw HTTP status.
 */
export interface HostedClient {
  /** The hosted hub's URL (its origin), as `hub login` was given it. */
  readonly url: string;
  get<T>(path: string, schema: z.ZodType<T>): Promise<T>;
  post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T>;
}
