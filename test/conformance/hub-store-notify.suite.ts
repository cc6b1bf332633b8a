/**
 * The HubStore contract, part nine: notifications (engine/store/notify-records.ts). Called from
 * describeHubStore (hub-store.suite.ts), so it runs in both runtimes. A device is kept per
 * endpoint (subscribing again replaces it) and removed by id; a waiting call's notification is
 * claimed once, and past the per-minute cap it is recorded as capped, never sent later.
 */
import { expect } from 'vitest';
import type { PushDevice } from '../../engine/contracts/notify.ts';
import { T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const P256DH = `B${'A'.repeat(86)}`;
const device = (id: string, endpoint: string, at = T0): PushDevice => ({
  id,
  endpoint,
  p256dh: P256DH,
  auth: 'AAAAAAAAAAAAAAAAAAAAAA',
  label: 'Chromium on Linux',
  createdAt: at,
});

export function describeNotifyRecords(check: Check): void {
  check('push devices are kept per endpoint, listed oldest first and removed by id', ({ store }) => {
    store.putPushDevice(device('d1', 'https://push.example/a'));
    store.putPushDevice(device('d2', 'https://push.example/b', T0 + 1));
    store.putPushDevice({ ...device('d3', 'https://push.example/a', T0 + 2), label: 'again' });
    expect(store.listPushDevices().map((d) => [d.id, d.label])).toEqual([
      ['d1', 'again'],
      ['d2', 'Chromium on Linux'],
    ]);
    expect(store.removePushDevice('d1')).toBe(true);
    expect(store.removePushDevice('d1')).toBe(false);
    expect(store.listPushDevices().map((d) => d.id)).toEqual(['d2']);
    expect(() => store.putPushDevice(device('d4', 'ftp://push.example/plain'))).toThrow(/http\(s\)/);
  });

  check('a waiting call is notified once, and at most `perMinute` a minute', ({ store }) => {
    const claim = (n: number, at: number) =>
      store.claimNotification({ pendingId: `p${n}`, runId: 'r', at }, 2);
    expect(claim(1, T0)).toBe('sent');
    expect(claim(1, T0 + 1)).toBeUndefined();
    expect(claim(2, T0 + 2)).toBe('sent');
    expect(claim(3, T0 + 3)).toBe('capped');
    expect(claim(3, T0 + 120_000)).toBeUndefined();
    expect(claim(4, T0 + 120_000)).toBe('sent');
    expect(store.pruneNotifications(T0 + 60_000)).toBe(3);
  });

  check('notification settings keep a webhook only at an https URL', ({ store }) => {
    expect(store.getNotifySettings()).toEqual({});
    store.putNotifySettings({ webhook: 'https://chat.example/hook/1', origin: 'https://hub.example' });
    expect(store.getNotifySettings()).toEqual({
      webhook: 'https://chat.example/hook/1',
      origin: 'https://hub.example',
    });
    expect(() => store.putNotifySettings({ webhook: 'http://chat.example/hook' })).toThrow();
  });
}
