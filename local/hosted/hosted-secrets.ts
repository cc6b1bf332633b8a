/**
 * The hosted hub's tokens as secrets the local hub holds: while this home is signed in to a
 * hosted hub (hosted.json exists), its access and refresh tokens join the hub's own secrets, so the
 * scrubber keeps them out of everything the hub prints or stores (a source that reads `.env`, a
 * tail that quotes it). Read once, quietly (scrubbing is not a use of a credential), when the hub
 * opens; nothing is read for a home that is not signed in.
 */
import { existsSync } from 'node:fs';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { readHostedTokens } from './hosted-state.ts';

export interface HostedSecrets {
  /** The token values known so far (none until `ready`). */
  values(): readonly string[];
  /** Settles once the tokens were read (or found not to be there, or unreadable). */
  ready: Promise<void>;
}

export function hostedSecrets(hostedFile: string, secrets: () => SecretStore): HostedSecrets {
  let known: readonly string[] = [];
  const ready = existsSync(hostedFile)
    ? readHostedTokens(secrets()).then(
        (tokens) => {
          if (tokens) known = [tokens.access_token, ...(tokens.refresh_token ? [tokens.refresh_token] : [])];
        },
        () => {
          // A locked keychain: the tokens are not scrubbed this time, and nothing else fails.
        },
      )
    : Promise.resolve();
  return { values: () => known, ready };
}
