/**
 * The hosted hub's secret store in workerd, inside real HubObjects: the SecretStore contract,
 * then what encryption at rest must hold: the storage holds no value in any form a reader could
 * use, a record copied to another key or into another person's hub does not decrypt, a changed
 * SECRETS_KEY says what to do, and a short key is refused. Then its writes as a push makes them:
 * prepared ahead, run inside the store's transaction, and gone with it when it throws.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { EncryptedSecretStore } from '../../durable-objects/encrypted-secret-store.ts';
import type { HubEnv } from '../../durable-objects/hub-env.ts';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { describeSecretStore } from '../conformance/secret-store.suite.ts';

const hubs = (env as unknown as HubEnv).HUB;
const KEY = 'workers-test-secrets-key-0123456789abcdef';
const VALUE = 'ghp_hostedSecretValue0123456789abcdefXYZ';

/** Runs `body` with the storage of a new HubObject named `name`. */
const inHub = <T>(name: string, body: (storage: DurableObjectStorage) => Promise<T>) =>
  runInDurableObject(hubs.get(hubs.idFromName(name)), (_hub: HubObject, state) => body(state.storage));

let n = 0;
describeSecretStore({
  name: 'hosted, encrypted in the HubObject',
  withStore: (body) => {
    const name = `contract-${n++}`;
    return inHub(name, (storage) => body(new EncryptedSecretStore(storage, KEY, name)));
  },
});

describe('encryption at rest', () => {
  it('stores no form of the value, and a record moved to another key or hub does not decrypt', async () => {
    await inHub('github:9101', async (storage) => {
      const store = new EncryptedSecretStore(storage, KEY, 'github:9101');
      await store.set('GH__DEFAULT__TOKEN', VALUE);
      const raw = JSON.stringify([...(await storage.list()).entries()]);
      for (const form of [VALUE, btoa(VALUE), encodeURIComponent(VALUE), VALUE.slice(4, 20)]) {
        expect(raw).not.toContain(form);
      }
      const sealed = await storage.get('secret:GH__DEFAULT__TOKEN');
      await storage.put('secret:OTHER__DEFAULT__TOKEN', sealed);
      await expect(store.get('OTHER__DEFAULT__TOKEN')).rejects.toThrow('cannot be decrypted');
      // The same record in another person's hub (another derived key).
      const elsewhere = new EncryptedSecretStore(storage, KEY, 'github:9102');
      await expect(elsewhere.get('GH__DEFAULT__TOKEN')).rejects.toThrow('cannot be decrypted');
      const rotated = new EncryptedSecretStore(storage, `${KEY}-rotated`, 'github:9101');
      await expect(rotated.get('GH__DEFAULT__TOKEN')).rejects.toThrow('Enter the connection');
      expect(await store.get('GH__DEFAULT__TOKEN')).toBe(VALUE);
    });
  });

  it('hands a value out once: of two takers at once, one gets it; keys list by prefix', async () => {
    await inHub('github:9104', async (storage) => {
      const store = new EncryptedSecretStore(storage, KEY, 'github:9104');
      await store.set('oauth-sign-in:abc', VALUE);
      await store.set('GH__DEFAULT__TOKEN', VALUE);
      expect(store.keysStartingWith('oauth-sign-in:')).toEqual(['oauth-sign-in:abc']);
      const both = await Promise.all([store.take('oauth-sign-in:abc'), store.take('oauth-sign-in:abc')]);
      expect(both.filter((value) => value === VALUE)).toHaveLength(1);
      expect(both.filter((value) => value === undefined)).toHaveLength(1);
      expect(await store.get('oauth-sign-in:abc')).toBeUndefined();
      expect(store.keysStartingWith('oauth-sign-in:')).toEqual([]);
      expect(await store.get('GH__DEFAULT__TOKEN')).toBe(VALUE);
    });
  });

  it('refuses a SECRETS_KEY shorter than 32 characters, saying how to set one', async () => {
    await inHub('short-key', async (storage) => {
      expect(() => new EncryptedSecretStore(storage, 'too-short', 'h')).toThrow(
        'wrangler secret put SECRETS_KEY',
      );
    });
  });

  it('is the HubObject engine’s store: a connection entered there is kept encrypted and scrubbed', async () => {
    await runInDurableObject(hubs.get(hubs.idFromName('github:9103')), async (hub: HubObject, state) => {
      const now = Date.now();
      hub.store.addSource({
        kind: 'mcp-http',
        namespace: 'gh',
        url: 'https://api.example.com/mcp',
        allowedHosts: ['api.example.com'],
        addedAt: now,
        updatedAt: now,
      });
      await hub.engine.sources.saveCredential(
        'gh',
        'default',
        { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
        VALUE,
      );
      const raw = JSON.stringify([...(await state.storage.list()).entries()]);
      expect(raw).not.toContain(VALUE);
      expect(raw).toContain('secret:GH__DEFAULT__AUTHORIZATION');
      expect(hub.engine.secrets.scrubber.text(`the token is ${VALUE}`)).not.toContain(VALUE);
    });
  });
});

describe('writes inside a store transaction', () => {
  const httpSource = (namespace: string) => {
    const now = Date.now();
    return {
      kind: 'mcp-http' as const,
      namespace,
      url: 'https://api.example.com/mcp',
      allowedHosts: ['api.example.com'],
      addedAt: now,
      updatedAt: now,
    };
  };

  it('a push interrupted halfway leaves neither its records nor its secrets', async () => {
    await runInDurableObject(hubs.get(hubs.idFromName('github:9201')), async (hub: HubObject, state) => {
      const store = new EncryptedSecretStore(state.storage, KEY, 'github:9201');
      await store.set('KEPT__DEFAULT__TOKEN', 'the value before the push');
      const writes = [
        await store.prepareSet('GH__DEFAULT__TOKEN', VALUE),
        await store.prepareSet('KEPT__DEFAULT__TOKEN', 'the value the push would set'),
        store.prepareDelete('KEPT__DEFAULT__TOKEN'),
      ];
      // Prepared, not yet written.
      expect(await store.get('GH__DEFAULT__TOKEN')).toBeUndefined();
      expect(() =>
        hub.store.atomically(() => {
          hub.store.addSource(httpSource('gh'));
          for (const write of writes.slice(0, 2)) write();
          throw new Error('the push stopped halfway');
        }),
      ).toThrow('halfway');
      expect(hub.store.getSource('gh')).toBeUndefined();
      expect(await store.get('GH__DEFAULT__TOKEN')).toBeUndefined();
      expect(await store.get('KEPT__DEFAULT__TOKEN')).toBe('the value before the push');
      // A delete rolls back too.
      expect(() =>
        hub.store.atomically(() => {
          writes[2]?.();
          throw new Error('the push stopped halfway');
        }),
      ).toThrow('halfway');
      expect(await store.get('KEPT__DEFAULT__TOKEN')).toBe('the value before the push');
    });
  });

  it('lands whole with the records when the transaction completes', async () => {
    await runInDurableObject(hubs.get(hubs.idFromName('github:9202')), async (hub: HubObject, state) => {
      const store = new EncryptedSecretStore(state.storage, KEY, 'github:9202');
      const write = await store.prepareSet('GH__DEFAULT__TOKEN', VALUE);
      hub.store.atomically(() => {
        hub.store.addSource(httpSource('gh'));
        write();
      });
      expect(hub.store.getSource('gh')?.namespace).toBe('gh');
      expect(await store.get('GH__DEFAULT__TOKEN')).toBe(VALUE);
      hub.store.atomically(() => store.prepareDelete('GH__DEFAULT__TOKEN')());
      expect(await store.get('GH__DEFAULT__TOKEN')).toBeUndefined();
    });
  });

  it('reads back a value kept through the asynchronous storage API before this store used the synchronous one', async () => {
    await inHub('github:9203', async (storage) => {
      const store = new EncryptedSecretStore(storage, KEY, 'github:9203');
      await store.set('GH__DEFAULT__TOKEN', VALUE);
      // What the earlier store wrote, through `storage.put`: the same record, under the same key.
      const sealed = storage.kv.get('secret:GH__DEFAULT__TOKEN');
      storage.kv.delete('secret:GH__DEFAULT__TOKEN');
      expect(await storage.get('secret:GH__DEFAULT__TOKEN')).toBeUndefined();
      await storage.put('secret:GH__DEFAULT__TOKEN', sealed);
      expect(await store.get('GH__DEFAULT__TOKEN')).toBe(VALUE);
      // And the other way: what this store writes, the asynchronous API reads.
      expect(await storage.get('secret:GH__DEFAULT__TOKEN')).toEqual(sealed);
    });
  });
});
