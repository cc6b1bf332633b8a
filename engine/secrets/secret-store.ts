/**
 * The SecretStore port: where secret values live. Only the host that resolves a connection at
 * the moment of an upstream request, and the module that takes a person's input (`auth`), touch
 * it. Values never enter the store of records, a log or a result.
 */
export interface SecretStore {
  /** Where values are kept, in words for messages ("the macOS Keychain", "/home/ada/.capabilities/.env"). */
  readonly where: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * The secret store key for one secret of one connection: an environment-variable-like name,
 * since the fallback file is a .env file (spec: Concepts, Secret store).
 */
export function secretKey(namespace: string, connection: string, name: string): string {
  return [namespace, connection, name]
    .map((part) => part.toUpperCase().replace(/[^A-Z0-9]+/g, '_'))
    .join('__');
}

/** A write prepared ahead (a value already encrypted), run synchronously inside `HubStore.atomically`. */
export type PreparedSecretWrite = () => void;

/**
 * A secret store whose writes can join a store transaction, so one change that sets records and
 * secrets together (a push) lands whole or not at all: the awaited part (encrypting) happens
 * first, then each write runs synchronously inside the transaction. The hosted hub's store is
 * one; the local keychain is not (it never needs to be: pushes are applied hosted).
 */
export interface TransactionalSecretStore extends SecretStore {
  prepareSet(key: string, value: string): Promise<PreparedSecretWrite>;
  prepareDelete(key: string): PreparedSecretWrite;
}

/**
 * A secret store that can hand a value out once: `take` reads and deletes in one step, so of two
 * takers of one key only one gets the value (a pending sign-in's `state`, single use). The
 * hosted hub's encrypted store is one.
 */
export interface TakingSecretStore extends SecretStore {
  take(key: string): Promise<string | undefined>;
  /** The keys held that start with `prefix` (for sweeping what was left behind). */
  keysStartingWith(prefix: string): string[];
}
