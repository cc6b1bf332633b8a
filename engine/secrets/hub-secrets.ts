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
 * process serving for days re-reads nothing until a person runs `auth`. A value that could not
 * be read (a locked keychain) is tried again on a later refresh, at most every 30 s; a value
 * replaced by a new one is still scrubbed (it may still sit in a tail or a file). Reading never
 * prints the secret store's fallback notice: scrubbing is not a use of a credential.
 *
 * `refresh()` brings it up to date (async: the secret store is); `scrubber` is what it knows now,
 * for code that cannot wait (a synchronous envelope, a CLI line).
 */
import type { SecretRef } from '../contracts/connections.ts';
import type { Clock, HubStore } from '../ports.ts';
import { PROMPT_KEY_SETTING } from '../settings.ts';
import { secretValuesOf } from './oauth-grant.ts';
import { createScrubber, type Scrubber } from './scrub.ts';
import type { SecretStore } from './secret-store.ts';

export interface HubSecretsDeps {
  store: HubStore;
  /** Where connection secrets live; absent where the host keeps none. */
  secrets?: SecretStore | undefined;
  /** The host's own secrets, asked for on every refresh (a key may be created meanwhile). */
  own?: (() => readonly string[]) | undefined;
  /** Awaited first on every refresh: the host reads again own secrets another process may have replaced. */
  ownRefresh?: (() => Promise<void>) | undefined;
  /** For spacing out attempts to read a value that could not be read. */
  clock: Clock;
}

/** How long before a value that could not be read is tried again. */
export const RETRY_READ_MS = 30_000;
/** How many replaced values are still scrubbed (the newest). */
const FORMER_VALUES = 256;

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
  readonly #stored = new Map<string, { setAt: number; value: string; basic: boolean }>();
  /** Values since replaced under their key, newest last: still scrubbed. */
  readonly #former: string[] = [];
  /** Values resolved for calls: scrubbed even before the store says they exist. */
  readonly #learned = new Set<string>();
  #own: readonly string[] = [];
  #fingerprint: string | undefined;
  /** When a value that could not be read may be tried again. */
  #retryAt = 0;
  /** The refresh under way: callers at the same moment share it (one keychain read per value). */
  #refreshing: Promise<void> | undefined;
  #scrubber: Scrubber = createScrubber([]);

  constructor(deps: HubSecretsDeps) {
    this.#deps = deps;
  }

  get scrubber(): Scrubber {
    return this.#scrubber;
  }

  refresh(): Promise<void> {
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refresh(): Promise<void> {
    await this.#deps.ownRefresh?.();
    const refs = this.#deps.store.listConnections().flatMap((connection) => connection.secrets);
    const own = this.#deps.own?.() ?? [];
    const fingerprint = JSON.stringify([refs.map((ref) => [ref.key, ref.setAt ?? 0]), own]);
    const now = this.#deps.clock.now();
    if (fingerprint === this.#fingerprint || (this.#fingerprint === undefined && now < this.#retryAt)) return;
    let changed = own.length !== this.#own.length || own.some((value, i) => value !== this.#own[i]);
    this.#own = own;
    let unread = false;
    for (const ref of refs) {
      const setAt = ref.setAt ?? 0;
      const known = this.#stored.get(ref.key);
      if (known?.setAt === setAt) continue;
      const value = await this.#read(ref.key);
      if (value === undefined) {
        unread = true;
        continue;
      }
      const basic = isBasic(ref);
      if (known && known.value !== value) this.#retire(basic ? basicValuesOf(known.value) : [known.value]);
      this.#stored.set(ref.key, { setAt, value, basic });
      changed = true;
    }
    // Not remembered as done while a value is missing: the next refresh after a pause reads it.
    this.#fingerprint = unread ? undefined : fingerprint;
    if (unread) this.#retryAt = now + RETRY_READ_MS;
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
      // A keychain that cannot be read now: tried again later, and learned when a call resolves it.
      return undefined;
    }
  }

  #retire(values: readonly string[]): void {
    this.#former.push(...values);
    while (this.#former.length > FORMER_VALUES) this.#former.shift();
  }

  #rebuild(): void {
    this.#scrubber = createScrubber([
      // An OAuth grant is one JSON value holding several secrets: each is scrubbed on its own.
      ...[...this.#stored.values()].flatMap((entry) =>
        entry.basic ? basicValuesOf(entry.value) : secretValuesOf(entry.value),
      ),
      ...this.#former.flatMap(secretValuesOf),
      ...this.#learned,
      ...this.#own,
    ]);
  }
}

/** True for a secret sent as HTTP Basic: the store keeps `base64(user:password)`. */
function isBasic(ref: SecretRef): boolean {
  return ref.delivery.kind === 'header' && ref.delivery.scheme.toLowerCase() === 'basic';
}

/**
 * An HTTP Basic credential and what it encodes: `user:password` and the password alone, so an
 * upstream echoing the password (an error quoting what it was sent, decoded) is scrubbed too.
 * The user name is not a secret and stays.
 */
export function basicValuesOf(value: string): string[] {
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(value), (char) => char.charCodeAt(0)),
    );
  } catch {
    return [value];
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? [value, decoded] : [value, decoded, decoded.slice(colon + 1)];
}
