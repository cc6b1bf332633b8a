/**
 * Every secret value the hub holds, as one scrubber (invariant I1; design: "A run, end to end",
 * step 7). Scrubbing with the calling connection's secrets alone let one connection's secret
 * reach the model through another's error, a stderr tail, a tool description or a file a
 * source could read; so the scrubber knows them all: every connection of every source (read
 * from the secret store), the values resolved for calls, and the host's own (its HTTP token, the
 * client-prompt key).
 *
 * Kept current cheaply: the values are read again only when the connections' secret
 * references change (a new key, or a value entered again, which moves its `setAt`), so a
 * process serving for days re-reads nothing until a person runs `auth`. Reading never prints
 * the secret store's fallback notice: scrubbing is not a use of a credential.
 *
 * `refresh()` brings it up to date (async: the secret store is); `scrubber` is what it knows now,
 * for code that cannot wait (a synchronous envelope, a CLI line).
 */
import type { HubStore } from '../ports.ts';
import { PROMPT_KEY_SETTING } from '../runs/prompt-state.ts';
import { createScrubber, type Scrubber } from './scrub.ts';
import type { SecretStore } from './secret-store.ts';

export interface HubSecretsDeps {
  store: HubStore;
  /** Where connection secrets live; absent where the host keeps none. */
  secrets?: SecretStore | undefined;
  /** The host's own secrets, asked for on every refresh (a key may be created meanwhile). */
  own?: (() => readonly string[]) | undefined;
}

/** What the engine's parts need of the hub's secrets: the scrubber, kept current. */
export interface SecretScrubbing {
  /** Reads any secret entered since the last refresh. */
  refresh(): Promise<void>;
  /** Scrubs every secret known at the last refresh (or learned since). */
  readonly scrubber: Scrubber;
}

/** Scrubs nothing: for parts built without the hub's secrets (unit tests of the runs alone). */
export const NO_SCRUBBING: SecretScrubbing = {
  refresh: async () => {},
  scrubber: createScrubber([]),
};

/**
 * The hub's own secrets, for `HubSecretsDeps.own`: the host's (`fixed`: its bearer token) and
 * the client-prompt key, read from the store until it exists and kept once it does (it never
 * changes), so a refresh costs no query.
 */
export function hubOwnSecrets(
  store: HubStore,
  fixed: readonly (string | undefined)[],
): () => readonly string[] {
  const known = fixed.filter((value): value is string => typeof value === 'string' && value !== '');
  let promptKey: string | undefined;
  return () => {
    promptKey ??= store.getSetting(PROMPT_KEY_SETTING);
    return promptKey === undefined ? known : [...known, promptKey];
  };
}

export class HubSecrets implements SecretScrubbing {
  readonly #deps: HubSecretsDeps;
  /** Values read from the secret store, by key, with the `setAt` they were read at. */
  readonly #stored = new Map<string, { setAt: number; value: string }>();
  /** Values resolved for calls: scrubbed even before the store says they exist. */
  readonly #learned = new Set<string>();
  #own: readonly string[] = [];
  #fingerprint: string | undefined;
  #scrubber: Scrubber = createScrubber([]);

  constructor(deps: HubSecretsDeps) {
    this.#deps = deps;
  }

  get scrubber(): Scrubber {
    return this.#scrubber;
  }

  async refresh(): Promise<void> {
    const refs = this.#deps.store.listConnections().flatMap((connection) => connection.secrets);
    const own = this.#deps.own?.() ?? [];
    const fingerprint = JSON.stringify([refs.map((ref) => [ref.key, ref.setAt ?? 0]), own]);
    if (fingerprint === this.#fingerprint) return;
    let changed = own.length !== this.#own.length || own.some((value, i) => value !== this.#own[i]);
    this.#own = own;
    for (const ref of refs) {
      const setAt = ref.setAt ?? 0;
      if (this.#stored.get(ref.key)?.setAt === setAt) continue;
      const value = await this.#read(ref.key);
      if (value === undefined) continue;
      this.#stored.set(ref.key, { setAt, value });
      changed = true;
    }
    this.#fingerprint = fingerprint;
    if (changed) this.#rebuild();
  }

  /** Secret values just resolved for a call: from now on they are scrubbed too. */
  learn(values: readonly string[]): void {
    let changed = false;
    for (const value of values) {
      if (this.#learned.has(value)) continue;
      this.#learned.add(value);
      changed = true;
    }
    if (changed) this.#rebuild();
  }

  async #read(key: string): Promise<string | undefined> {
    try {
      return await this.#deps.secrets?.get(key);
    } catch {
      // A keychain that cannot be read now: the value is learned when a call resolves it.
      return undefined;
    }
  }

  #rebuild(): void {
    this.#scrubber = createScrubber([
      ...[...this.#stored.values()].map((entry) => entry.value),
      ...this.#learned,
      ...this.#own,
    ]);
  }
}
