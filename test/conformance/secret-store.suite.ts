/**
 * The SecretStore contract, one suite for every implementation: the local `.env` fallback (Node)
 * and the hosted hub's encrypted store (workerd). A value reads back exactly (unicode, long,
 * with newlines and `=`), a new value replaces the old, a deleted or unknown key reads as
 * absent, keys are independent, and `where` says in words where values live.
 */
import { describe, expect, it } from 'vitest';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';

export interface SecretStoreHarness {
  name: string;
  /** Runs `body` with a new, empty store (inside the host's context: a Durable Object's, for one). */
  withStore(body: (store: SecretStore) => Promise<void>): Promise<void>;
}

export function describeSecretStore(harness: SecretStoreHarness): void {
  describe(`SecretStore contract: ${harness.name}`, () => {
    it('reads back what was set, exactly, and absent for a key never set', () =>
      harness.withStore(async (store) => {
        const values = [
          'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
          'pässwörd 🔑 with spaces',
          'a=b\nc=d',
          'x'.repeat(4096),
        ];
        for (const [i, value] of values.entries()) await store.set(`NS__DEFAULT__K${i}`, value);
        for (const [i, value] of values.entries()) expect(await store.get(`NS__DEFAULT__K${i}`)).toBe(value);
        expect(await store.get('NS__DEFAULT__NEVER')).toBeUndefined();
        expect(store.where.length).toBeGreaterThan(0);
      }));

    it('replaces a value, deletes one key without touching another, and deleting twice is harmless', () =>
      harness.withStore(async (store) => {
        await store.set('A__DEFAULT__TOKEN', 'first-value-123');
        await store.set('B__DEFAULT__TOKEN', 'other-value-456');
        await store.set('A__DEFAULT__TOKEN', 'second-value-789');
        expect(await store.get('A__DEFAULT__TOKEN')).toBe('second-value-789');
        await store.delete('A__DEFAULT__TOKEN');
        await store.delete('A__DEFAULT__TOKEN');
        expect(await store.get('A__DEFAULT__TOKEN')).toBeUndefined();
        expect(await store.get('B__DEFAULT__TOKEN')).toBe('other-value-456');
      }));
  });
}
