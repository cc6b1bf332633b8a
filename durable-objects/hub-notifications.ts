/**
 * The hosted hub's notifications (issue #37), assembled for one HubObject: the hub's VAPID keys
 * (kept in its encrypted secret store), the notify desk the dashboard's settings page records
 * through, and the notifier the object hands each run that starts waiting for a person. The
 * local hub has none of this: it opens the approval page itself.
 */

import type { PrivateAddresses } from '../engine/connectors/guarded-fetch.ts';
import { NotifyDesk } from '../engine/desk/notify-desk.ts';
import type { Clock, HubStore, Random } from '../engine/ports.ts';
import { Notifier } from '../engine/push/notifier.ts';
import { StoredVapidKeys } from '../engine/push/vapid-keys.ts';
import type { Scrubber } from '../engine/secrets/scrub.ts';
import type { SecretStore } from '../engine/secrets/secret-store.ts';

/** The VAPID contact when the hub's origin is not https (a development hub): RFC 8292 §2.1 asks for one. */
const FALLBACK_SUBJECT = 'mailto:notifications@capabilities.invalid';

export interface HubNotificationsDeps {
  store: HubStore;
  /** Absent without SECRETS_KEY: the settings page then says notifications need it. */
  secrets: SecretStore | undefined;
  clock: Clock;
  random: Random;
  scrubber: () => Scrubber;
  privateAddresses: PrivateAddresses;
}

export interface HubNotifications {
  desk: NotifyDesk;
  notifier: Notifier;
}

export function hubNotifications(deps: HubNotificationsDeps): HubNotifications {
  const { store, clock, random, privateAddresses } = deps;
  const vapid = new StoredVapidKeys(deps.secrets);
  return {
    desk: new NotifyDesk({ store, clock, random, vapid, privateAddresses }),
    notifier: new Notifier({
      store,
      clock,
      vapid,
      scrubber: deps.scrubber,
      // The hub's own https origin, as the dashboard last saw it, is its contact for push services.
      subject: () => {
        const origin = store.getNotifySettings().origin;
        return origin?.startsWith('https://') ? origin : FALLBACK_SUBJECT;
      },
      privateAddresses,
      log: (message) => console.error(`notifications: ${message}`),
    }),
  };
}
