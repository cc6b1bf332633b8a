/**
 * The hosted hub's SecretStore: each value encrypted at rest in the HubObject's own storage with
 * AES-256-GCM (WebCrypto), under a key derived per hub (HKDF-SHA-256 of the Worker secret
 * SECRETS_KEY, with the hub's name as its info), and with the secret's key as additional data,
 * so a value copied under another key, or into another person's hub, does not decrypt. The
 * record holds only the nonce and the ciphertext. Values leave only through `get`, which the
 * engine calls at the moment of an upstream request and to scrub; no route or tool returns one.
 */
import { HubError } from '../engine/errors.ts';
import type { SecretStore } from '../engine/secrets/secret-store.ts';

/** The shortest SECRETS_KEY accepted: 32 characters of a random secret. */
export const MIN_SECRETS_KEY_LENGTH = 32;

const PREFIX = 'secret:';
const SALT = new TextEncoder().encode('capabilities hosted secret store v1');

interface Sealed {
  iv: string;
  data: string;
}

/** The part of Durable Object storage this store needs (its key-value API). */
export interface SecretStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
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

export class EncryptedSecretStore implements SecretStore {
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
    const sealed = await this.#storage.get<Sealed>(PREFIX + key);
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
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(key) },
      await this.#key,
      new TextEncoder().encode(value),
    );
    await this.#storage.put<Sealed>(PREFIX + key, { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) });
  }

  async delete(key: string): Promise<void> {
    await this.#storage.delete(PREFIX + key);
  }
}
