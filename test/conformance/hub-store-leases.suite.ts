/**
 * The HubStore contract, part five: refresh leases (engine/store/lease-records.ts), which process
 * is refreshing an OAuth connection's token. Called from describeHubStore (hub-store.suite.ts), so
 * it runs in both runtimes. A lease is taken when there is none, refused while another holder
 * holds it, renewed by its own holder, taken over once it expired, and released only by its holder.
 */
import { expect } from 'vitest';
import { rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const KEY = 'BOARD__DEFAULT__OAUTH';
const lease = (holder: string, expiresAt = T0 + 30_000) => ({ key: KEY, holder, expiresAt });

export function describeLeaseRecords(check: Check): void {
  check(
    'a refresh lease is taken once, refused to another holder until it expires, then taken over',
    ({ store }) => {
      expect(store.takeRefreshLease(lease('a'), T0)).toBe(true);
      expect(store.takeRefreshLease(lease('b'), T0)).toBe(false);
      expect(store.takeRefreshLease(lease('b'), T0 + 29_999)).toBe(false);
      // Its own holder renews it; another key is another lease.
      expect(store.takeRefreshLease(lease('a', T0 + 40_000), T0 + 1)).toBe(true);
      expect(store.takeRefreshLease({ ...lease('b'), key: 'OTHER__DEFAULT__OAUTH' }, T0)).toBe(true);
      expect(store.takeRefreshLease(lease('b'), T0 + 30_000)).toBe(false);
      // Expired (its holder died): taken over, and then the old holder is the one refused.
      expect(store.takeRefreshLease(lease('b', T0 + 70_000), T0 + 40_000)).toBe(true);
      expect(store.takeRefreshLease(lease('a', T0 + 80_000), T0 + 40_001)).toBe(false);
    },
  );

  check('a refresh lease is released only by its holder', ({ store }) => {
    expect(store.takeRefreshLease(lease('a'), T0)).toBe(true);
    store.releaseRefreshLease(KEY, 'b');
    expect(store.takeRefreshLease(lease('b'), T0)).toBe(false);
    store.releaseRefreshLease(KEY, 'a');
    expect(store.takeRefreshLease(lease('b'), T0)).toBe(true);
    // Releasing what is not held, or no lease at all, is no error.
    store.releaseRefreshLease(KEY, 'a');
    store.releaseRefreshLease('NONE__DEFAULT__OAUTH', 'a');
    expect(store.takeRefreshLease(lease('a'), T0)).toBe(false);
  });

  check(
    'a refresh lease with no key or holder, or a time that is no epoch ms, is refused',
    async ({ store }) => {
      await rejectsWith('invalid_input', () => store.takeRefreshLease({ ...lease('a'), key: '' }, T0));
      await rejectsWith('invalid_input', () => store.takeRefreshLease(lease(''), T0));
      await rejectsWith('invalid_input', () => store.takeRefreshLease(lease('a', Number.NaN), T0));
      await rejectsWith('invalid_input', () => store.takeRefreshLease(lease('a'), T0 + 0.5));
      expect(store.takeRefreshLease(lease('b'), T0)).toBe(true);
    },
  );
}
