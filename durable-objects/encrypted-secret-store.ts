/**
 * The hosted hub's SecretStore: each value encrypted at rest in the HubObject's own storage with
 * AES-256-GCM (WebCrypto), under a key derived per hub (HKDF-SHA-256 of the Worker secret
 * SECRETS_KEY, with the hub's name as its info), and with the secret's key as additional data,
 * so a value copied under another key, or into another person's hub, does not decrypt. The
 * record holds only the nonce and the ciphertext. Values leave only through `get`, which the
 * engine calls at the moment of an upstream request and to scrub; no route or tool returns one.
 *
 * Records go through the object's synchronous key-value API (`ctx.storage.kv`), so a write can
 * join a store transaction: `prepareSet` encrypts first (the only awaited part) and hands back a
 * synchronous write, which `HubStore.atomically` runs inside the same SQLite transaction as the
 * records (drizzle's durable-sqlite driver uses `transactionSync`): a push that throws halfway
 * leaves neither its records nor its secrets. In a SQLite-backed object the asynchronous and the
 * synchronous key-value APIs read and write one store, so values kept before read back the same.
 */
import { HubError } from '../engine/errors.ts';
import type {
  PreparedSecretWrite,
  TakingSecretStore,
  TransactionalSecretStore,
} from '../engine/secrets/secret-store.ts';

/** The shortest SECRETS_KEY accepted: 32 characters of a random secret. */
export const MIN_SECRETS_KEY_LENGTH = 32;

const PREFIX = 'secret:';
const SALT = new TextEncoder().encode('capabilities hosted secret store v1');

interface Sealed {
  iv: string;
  data: string;
}

/** The part of Durable Object storage this store needs: its synchronous key-value API (`SyncKvStorage`). */
export interface SecretStorage {
  kv: {
    get<T>(key: string): T | undefined;
    put<T>(key: string, value: T): void;
    delete(key: string): boolean;
    list<T>(options?: { prefix?: string }): Iterable<[string, T]>;
  };
}

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function hubKey(secretsKey: string, hub: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(secretsKey), 'HKDF', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: new TextEncoder().encode(hub) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

export class EncryptedSecretStore implements TransactionalSecretStore, TakingSecretStore {
  readonly where = "this hub's encrypted storage";
  readonly #storage: SecretStorage;
  readonly #key: Promise<CryptoKey>;

  constructor(storage: SecretStorage, secretsKey: string, hub: string) {
    if (secretsKey.length < MIN_SECRETS_KEY_LENGTH) {
      throw new HubError(
        'unavailable',
        `SECRETS_KEY must be at least ${MIN_SECRETS_KEY_LENGTH} characters; set a random one with \`wrangler secret put SECRETS_KEY\` (.dev.vars under \`npm run dev\`)`,
      );
    }
    this.#storage = storage;
    this.#key = hubKey(secretsKey, hub);
  }

  async get(key: string): Promise<string | undefined> {
    return this.#open(key, this.#storage.kv.get<Sealed>(PREFIX + key));
  }

  /**
   * The value under `key`, deleted in the same synchronous step it is read in (before anything
   * is awaited): of two takers in this object, one gets it.
   */
  async take(key: string): Promise<string | undefined> {
    const sealed = this.#storage.kv.get<Sealed>(PREFIX + key);
    if (sealed) this.#storage.kv.delete(PREFIX + key);
    return this.#open(key, sealed);
  }

  keysStartingWith(prefix: string): string[] {
    return [...this.#storage.kv.list<Sealed>({ prefix: PREFIX + prefix })].map(([key]) =>
      key.slice(PREFIX.length),
    );
  }

  async #open(key: string, sealed: Sealed | undefined): Promise<string | undefined> {
    if (!sealed) return undefined;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64(sealed.iv), additionalData: new TextEncoder().encode(key) },
        await this.#key,
        fromBase64(sealed.data),
      );
      return new TextDecoder().decode(plain);
    } catch {
      throw new HubError(
        'unavailable',
        "a stored secret cannot be decrypted: SECRETS_KEY changed since it was entered. Enter the connection's secret again in the dashboard.",
      );
    }
  }

  async set(key: string, value: string): Promise<void> {
    (await this.prepareSet(key, value))();
  }

  async delete(key: string): Promise<void> {
    this.prepareDelete(key)();
  }

  /** Encrypts `value` now; the write it returns stores it synchronously (inside a transaction, if any). */
  async prepareSet(key: string, value: string): Promise<PreparedSecretWrite> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(key) },
      await this.#key,
      new TextEncoder().encode(value),
    );
    const sealed: Sealed = { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
    return () => this.#storage.kv.put<Sealed>(PREFIX + key, sealed);
  }

  prepareDelete(key: string): PreparedSecretWrite {
    return () => {
      this.#storage.kv.delete(PREFIX + key);
    };
  }
}
