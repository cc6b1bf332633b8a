/**
 * What the hosted dashboard's notification settings ask the engine (issue #37): the hub's public
 * VAPID key a browser subscribes with, the person's subscribed devices (add, list, remove), their
 * webhook, and which waiting calls are still open, so a page can close the notifications of calls
 * decided elsewhere. Sending is the notifier's (engine/push/notifier.ts); this reads and records.
 */

import { openInputs } from '../approvals/open-inputs.ts';
import { type PrivateAddresses, privateAddressRefusal } from '../connectors/guarded-fetch.ts';
import type { NotifySettings, PushDevice } from '../contracts/notify.ts';
import { PushDevice as PushDeviceSchema } from '../contracts/notify.ts';
import { HubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { VapidKeySource } from '../push/vapid-keys.ts';

/** What a browser's `PushSubscription.toJSON()` gives, with the label the page names it by. */
export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
}

export interface NotifyDeskDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
  vapid: VapidKeySource;
  /**
   * `refuse` (the hosted hub): an endpoint is https at a public address, as browsers give;
   * `allow` (development) also takes a loopback http push service.
   */
  privateAddresses: PrivateAddresses;
}

export class NotifyDesk {
  readonly #deps: NotifyDeskDeps;

  constructor(deps: NotifyDeskDeps) {
    this.#deps = deps;
  }

  /** The browser's `applicationServerKey`; `unavailable` on a hub that keeps no secrets. */
  publicKey(): Promise<string> {
    return this.#deps.vapid.publicKey();
  }

  /** The person's subscribed devices, oldest first. */
  devices(): PushDevice[] {
    return this.#deps.store.listPushDevices();
  }

  /**
   * Keeps a device's subscription (the same endpoint again replaces its keys); `invalid_input`
   * naming what is wrong for anything a browser would not have sent.
   */
  subscribe(subscription: DeviceSubscription): PushDevice {
    const device = {
      id: randomId(this.#deps.random, 'dev_', 12),
      endpoint: subscription.endpoint,
      p256dh: subscription.p256dh,
      auth: subscription.auth,
      label: subscription.label.trim().slice(0, 120) || 'A browser',
      createdAt: this.#deps.clock.now(),
    };
    const checked = PushDeviceSchema.safeParse(device);
    if (!checked.success) {
      const fields = [
        ...new Set(checked.error.issues.map((issue) => String(issue.path[0] ?? 'subscription'))),
      ];
      throw new HubError(
        'invalid_input',
        `not a push subscription (${fields.join(', ')}): turn notifications on again from this page`,
      );
    }
    const endpoint = new URL(checked.data.endpoint);
    if (this.#deps.privateAddresses === 'refuse') {
      if (endpoint.protocol !== 'https:') {
        throw new HubError(
          'invalid_input',
          'a push endpoint is an https:// URL: turn notifications on again from this page',
        );
      }
      const refused = privateAddressRefusal(endpoint, 'refuse', 'cannot send notifications to');
      if (refused) throw new HubError('invalid_input', refused.message);
    }
    this.#deps.store.putPushDevice(checked.data);
    return (
      this.#deps.store.listPushDevices().find((d) => d.endpoint === checked.data.endpoint) ?? checked.data
    );
  }

  /** Forgets a device; `not_found` when there is none by that id. */
  remove(id: string): void {
    if (!this.#deps.store.removePushDevice(id)) {
      throw new HubError('not_found', `no device "${id}": it was removed already; reload the page`);
    }
  }

  settings(): NotifySettings {
    return this.#deps.store.getNotifySettings();
  }

  /**
   * Sets (or, with undefined, clears) the webhook, and the hub's origin as the page saw it, which
   * the links in each message start from. `invalid_input` for a URL that is not https.
   */
  setWebhook(webhook: string | undefined, origin: string): void {
    const settings = { ...(webhook ? { webhook } : {}), origin };
    if (webhook !== undefined && !isHttps(webhook)) {
      throw new HubError(
        'invalid_input',
        `the webhook must be an https:// URL, not "${webhook.slice(0, 200)}"`,
      );
    }
    if (webhook !== undefined && this.#deps.privateAddresses === 'refuse') {
      const refused = privateAddressRefusal(new URL(webhook), 'refuse', 'cannot send notifications to');
      if (refused) throw new HubError('invalid_input', refused.message);
    }
    this.#deps.store.putNotifySettings(settings);
  }

  /** Remembers the hub's origin as the dashboard was reached, keeping the webhook as it is. */
  noteOrigin(origin: string): void {
    const settings = this.#deps.store.getNotifySettings();
    if (settings.origin !== origin) this.#deps.store.putNotifySettings({ ...settings, origin });
  }

  /** The ids of the pending inputs still waiting for a person, in every waiting run. */
  waiting(): string[] {
    const { store } = this.#deps;
    return store
      .listRuns({ status: 'awaiting_input' })
      .flatMap((run) => openInputs(store, run.id).map((pending) => pending.id));
  }
}

function isHttps(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}
