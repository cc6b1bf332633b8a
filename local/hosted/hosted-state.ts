/**
 * What `hub login` keeps about the hosted hub it signed in to, in two places:
 *
 * - `<home>/hub/hosted.json` (mode 600, written atomically): the hub's URL, the OAuth client the
 *   CLI registered there (its client_id and registration, never a client secret), the login once
 *   known, and when the sign-in happened. Nothing in it lets anyone in.
 * - the secret store (keychain, else `<home>/.env` with its notice): the tokens, as one JSON value
 *   under HOSTED_TOKENS_KEY, each with the moment its access token expires; a client secret, if
 *   a server ever issues one, under HOSTED_CLIENT_SECRET_KEY.
 *
 * A file that is not valid is refused with what to do (sign in again), never guessed at.
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { HubError } from '../../engine/errors.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { writeFileAtomic } from '../home.ts';

/** The secret store key of the hosted hub's tokens (one JSON value). */
export const HOSTED_TOKENS_KEY = 'CAPABILITIES_HOSTED_TOKENS';
/** The secret store key of the CLI's client secret at the hosted hub, when it has one. */
export const HOSTED_CLIENT_SECRET_KEY = 'CAPABILITIES_HOSTED_CLIENT_SECRET';

/** The OAuth client the CLI registered at the hosted hub, as the server answered (less any secret). */
export const HostedClientInfo = z.looseObject({
  client_id: z.string().min(1),
  /** The authorization server the client belongs to (the SDK stamps it). */
  issuer: z.string().optional(),
  redirect_uris: z.array(z.string()).optional(),
});
export type HostedClientInfo = z.infer<typeof HostedClientInfo>;

export const HostedFile = z.object({
  /** The hosted hub's origin, as `hub login --url` was given it. */
  url: z.url(),
  client: HostedClientInfo,
  /** The GitHub login the hub says the sign-in belongs to, once known. */
  login: z.string().optional(),
  /** ISO 8601. */
  signedInAt: z.string(),
  /** When the tokens were last written (a refresh): a process scrubbing them reads them again. */
  tokensAt: z.string().optional(),
});
export type HostedFile = z.infer<typeof HostedFile>;

/** The tokens as kept in the secret store: what the token endpoint answered, with the expiry as a moment. */
export const HostedTokens = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  /** The authorization server that issued them (the SDK stamps it). */
  issuer: z.string().optional(),
  /** Milliseconds since the epoch when the access token stops working; absent when the server did not say. */
  expires_at: z.number().optional(),
  /**
   * The hub they were issued for (its URL, as hosted.json names it): a hosted.json changed to name
   * another never gets them sent there.
   */
  hub: z.string().optional(),
});
export type HostedTokens = z.infer<typeof HostedTokens>;

/** hosted.json, or undefined when no sign-in is kept. */
export function readHostedFile(path: string): HostedFile | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw corrupt(path, (error as Error).message);
  }
  const parsed = HostedFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw corrupt(path, `${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export function writeHostedFile(path: string, file: HostedFile): void {
  writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}

export function removeHostedFile(path: string): void {
  if (existsSync(path)) unlinkSync(path);
}

/** The kept tokens, or undefined when there are none (or what is kept cannot be read as tokens). */
export async function readHostedTokens(secrets: SecretStore): Promise<HostedTokens | undefined> {
  const text = await secrets.get(HOSTED_TOKENS_KEY);
  if (text === undefined || text === '') return undefined;
  try {
    const parsed = HostedTokens.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeHostedTokens(secrets: SecretStore, tokens: HostedTokens): Promise<void> {
  await secrets.set(HOSTED_TOKENS_KEY, JSON.stringify(tokens));
}

/** Forgets the tokens and any client secret. */
export async function forgetHostedSecrets(secrets: SecretStore): Promise<void> {
  await secrets.delete(HOSTED_TOKENS_KEY);
  await secrets.delete(HOSTED_CLIENT_SECRET_KEY);
}

/** True when the access token has expired, or will within `marginMs` (a call takes a moment). */
export function accessExpired(tokens: HostedTokens, now: number, marginMs = 30_000): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at - marginMs <= now;
}

function corrupt(path: string, why: string): HubError {
  return new HubError(
    'corrupt',
    `${path} is not a valid sign-in record (${why}); delete it and run \`capabilities hub login\` again`,
  );
}
