/**
 * The hub's VAPID key pair (RFC 8292): the key a person's browser subscribes with and the hub
 * signs each push request with. Made on first use, one per hub, and kept in the hub's secret
 * store (encrypted at rest on the hosted hub), so a deployment needs no key of its own and a
 * person's subscriptions are bound to their hub alone. A hub that keeps no secrets cannot sign.
 */
import { HubError } from '../errors.ts';
import { base64url } from '../hex.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { generateVapidJwk, importVapidKeys, type Jwk, type VapidKeys } from './web-push.ts';

/** Where the private key is kept in the secret store (a name no connection's key can take). */
export const VAPID_SECRET_KEY = 'HUB__VAPID__PRIVATE_KEY';

/** What the notifier and the settings page need: the keys, made once. */
export interface VapidKeySource {
  keys(): Promise<VapidKeys>;
  /** The public key as a browser's `applicationServerKey`: base64url of the 65-octet point. */
  publicKey(): Promise<string>;
}

export class StoredVapidKeys implements VapidKeySource {
  readonly #secrets: SecretStore | undefined;
  #keys: Promise<VapidKeys> | undefined;

  constructor(secrets: SecretStore | undefined) {
    this.#secrets = secrets;
  }

  keys(): Promise<VapidKeys> {
    // One promise per object: two requests at once make one key, never two.
    this.#keys ??= this.#load().catch((error: unknown) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  async publicKey(): Promise<string> {
    return base64url((await this.keys()).publicPoint);
  }

  async #load(): Promise<VapidKeys> {
    const secrets = this.#secrets;
    if (!secrets) {
      throw new HubError(
        'unavailable',
        'this hub keeps no secrets, so it cannot sign notifications: set the Worker secret SECRETS_KEY (wrangler secret put SECRETS_KEY)',
      );
    }
    const kept = await secrets.get(VAPID_SECRET_KEY);
    if (kept !== undefined) return importVapidKeys(JSON.parse(kept) as Jwk);
    const jwk = await generateVapidJwk();
    await secrets.set(VAPID_SECRET_KEY, JSON.stringify(jwk));
    return importVapidKeys(jwk);
  }
}
