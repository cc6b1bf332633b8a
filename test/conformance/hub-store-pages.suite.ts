/**
 * The HubStore contract, part three: page links and page sessions (engine/store/page-records.ts).
 * Called from describeHubStore (hub-store.suite.ts), so it runs in both runtimes with the same
 * harness. The tokens themselves are engine/pages' concern (test/node/page-access.test.ts); the
 * store sees only their hashes.
 */
import { expect } from 'vitest';
import type { PageLink } from '../../engine/contracts/pages.ts';
import { digest, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const link = (hash: string, expiresAt = T0 + 600_000): PageLink => ({
  tokenHash: digest(hash),
  target: { kind: 'run', runId: 'run_1' },
  createdAt: T0,
  expiresAt,
});
const session = (hash: string, expiresAt = T0 + 3_600_000) => ({
  tokenHash: digest(hash),
  who: 'ada',
  createdAt: T0 + 1,
  expiresAt,
});

export function describePageRecords(check: Check): void {
  check(
    'a page link is exchanged for one session, with its target; a second exchange is refused used',
    async ({ store }) => {
      store.addPageLink(link('a'));
      await rejectsWith('conflict', () => store.addPageLink(link('a')));
      const first = store.redeemPageLink(digest('a'), session('b'), T0 + 1);
      expect(first).toEqual({
        ok: true,
        session: { ...session('b'), target: { kind: 'run', runId: 'run_1' } },
      });
      expect(store.getPageLink(digest('a'))?.usedAt).toBe(T0 + 1);
      expect(store.redeemPageLink(digest('a'), session('c'), T0 + 2)).toEqual({ ok: false, reason: 'used' });
      expect(store.getPageSession(digest('b'))?.who).toBe('ada');
      expect(store.getPageSession(digest('c'))).toBeUndefined();
    },
  );

  check('an expired or unknown link opens no session', ({ store }) => {
    store.addPageLink({ ...link('a', T0 + 10), target: { kind: 'dashboard' } });
    expect(store.redeemPageLink(digest('a'), session('b'), T0 + 10)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(store.redeemPageLink(digest('d'), session('b'), T0 + 1)).toEqual({ ok: false, reason: 'unknown' });
    expect(store.getPageSession(digest('b'))).toBeUndefined();
    expect(store.getPageLink(digest('a'))?.usedAt).toBeUndefined();
  });

  check('a page link or session that fails its schema is refused', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addPageLink({ ...link('a'), tokenHash: 'raw-token' }));
    await rejectsWith('invalid_input', () =>
      store.addPageLink({ ...link('a'), target: { kind: 'nowhere' } as unknown as PageLink['target'] }),
    );
    store.addPageLink(link('a'));
    await rejectsWith('invalid_input', () =>
      store.redeemPageLink(digest('a'), { ...session('b'), who: '' }, T0 + 1),
    );
    expect(store.getPageLink(digest('a'))?.usedAt).toBeUndefined();
  });

  check(
    'sweeping deletes the links and sessions that expired, and ending a session deletes it',
    ({ store }) => {
      store.addPageLink(link('a', T0 + 10));
      store.addPageLink(link('b', T0 + 100));
      store.addPageLink(link('c', T0 + 1_000));
      store.redeemPageLink(digest('b'), session('d', T0 + 20), T0 + 5);
      store.redeemPageLink(digest('c'), session('e', T0 + 2_000), T0 + 5);
      expect(store.sweepPageAccess(T0 + 50)).toBe(2);
      expect(store.getPageLink(digest('a'))).toBeUndefined();
      expect(store.getPageSession(digest('d'))).toBeUndefined();
      // A used link stays until it expires, so a second click can be told it was used.
      expect(store.getPageLink(digest('b'))?.usedAt).toBe(T0 + 5);
      expect(store.getPageSession(digest('e'))?.who).toBe('ada');
      store.removePageSession(digest('e'));
      store.removePageSession(digest('e'));
      expect(store.getPageSession(digest('e'))).toBeUndefined();
      expect(store.sweepPageAccess(T0 + 50)).toBe(0);
    },
  );
}
