/**
 * The hosted hub's bindings and settings (wrangler.toml and its secrets), as the Worker and each
 * HubObject read them: what a deployment sets, and what each setting does when it is unset.
 */
import type { HubObject } from './hub-object.ts';

export interface HubEnv {
  HUB: DurableObjectNamespace<HubObject>;
  /**
   * Self-hosting by one person only: a bearer token (32+ characters) that `/mcp` also accepts,
   * for the hub named HUB_NAME. People reach their own hubs through OAuth; this token never
   * reaches a page, so it can never record a decision.
   */
  HUB_TOKEN?: string;
  /** The hub HUB_TOKEN serves (default `default`). */
  HUB_NAME?: string;
  /** Loads guest code as dynamic Workers (WorkerLoaderSandbox); `[[worker_loaders]]` in wrangler.toml. */
  LOADER?: WorkerLoader;
  /** OAuth grants and tokens (workers-oauth-provider) and sign-in sessions, all stored hashed. */
  OAUTH_KV: KVNamespace;
  /** The GitHub OAuth app people sign in with (its callback: `<origin>/login/callback`). */
  GITHUB_CLIENT_ID?: string;
  GITHUB_CLIENT_SECRET?: string;
  /** GitHub's web flow (default https://github.com) and API (default https://api.github.com): GitHub Enterprise, or a test's stand-in. */
  GITHUB_URL?: string;
  GITHUB_API_URL?: string;
  /** Comma-separated GitHub logins who may sign up (an alpha's allowlist); unset: anyone. */
  SIGNUP_ALLOWLIST?: string;
  /** `1` lets sources reach private, loopback and link-local addresses (development only; off by default). */
  ALLOW_PRIVATE_UPSTREAMS?: string;
  /**
   * The key every hub's connection secrets are encrypted under (32+ random characters; each hub
   * derives its own from it). Unset: the hub keeps no secrets, and entering one says so.
   */
  SECRETS_KEY?: string;
}
