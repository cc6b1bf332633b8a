/**
 * The hosted hub's tokens as secrets the local hub holds: while this home is signed in to a
 * hosted hub (hosted.json exists), its access and refresh tokens join the hub's own secrets, so the
 * scrubber keeps them out of everything the hub prints or stores (a source that reads `.env`, a
 * tail that quotes it). Read quietly (scrubbing is not a use of a credential) when the hub opens,
 * and again before a refresh of the scrubber whenever hosted.json changed (a new sign-in, or a
 * refresh in another process, which marks it): a hub serving for days scrubs the tokens of now.
 * Tokens seen before stay scrubbed (the newest few), as replaced connection secrets do.
 */
import { statSync } from 'node:fs';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { readHostedTokens } from './hosted-state.ts';

/** How many token values are kept scrubbed, the newest. */
const KEPT_VALUES = 16;

export interface HostedSecrets {
  /** The token values known so far (none until `ready`), former ones included. */
  values(): readonly string[];
  /** Settles once the tokens were first read (or found not to be there, or unreadable). */
  ready: Promise<void>;
  /** Reads the tokens again if hosted.json changed since they were read. */
  refresh(): Promise<void>;
}

export function hostedSecrets(hostedFile: string, secrets: () => SecretStore): HostedSecrets {
  let known: readonly string[] = [];
  /** hosted.json's modification time when the tokens were last read. */
  let readAt: number | undefined;
  const refresh = async (): Promise<void> => {
    const changed = statSync(hostedFile, { throwIfNoEntry: false })?.mtimeMs;
    if (changed === undefined || changed === readAt) return;
    readAt = changed;
    try {
      const tokens = await readHostedTokens(secrets());
      if (!tokens) return;
      const fresh = [tokens.access_token, ...(tokens.refresh_token ? [tokens.refresh_token] : [])];
      known = [...known.filter((value) => !fresh.includes(value)), ...fresh].slice(-KEPT_VALUES);
    } catch {
      // A locked keychain: tried again once hosted.json changes; nothing else fails.
      readAt = undefined;
    }
  };
  return { values: () => known, ready: refresh(), refresh };
}
