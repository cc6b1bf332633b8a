/**
 * The HubStore contract, part eight: what search keeps (engine/store/search-records.ts). Called
 * from describeHubStore (hub-store.suite.ts), so it runs in both runtimes. A namespace's search
 * documents are kept only for the manifest they were made from: storing or removing the manifest
 * drops them, and documents made from another manifest are never stored. The contracts a person
 * reviewed read by address, following reviews as they change.
 */
import { expect } from 'vitest';
import type { StoredSearchDocuments } from '../../engine/ports.ts';
import { digest, fixtures, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const tool = (name: string) => ({
  address: `linear.${name}`,
  name,
  inputSchema: { type: 'object' },
  contract: digest('b'),
});

const documents = (fetchedAt: number): StoredSearchDocuments => ({
  namespace: 'linear',
  fetchedAt,
  format: '1:abcdef01',
  documents: [{ doc: { kind: 'tool', address: 'linear.alpha' }, terms: [['alpha']] }],
});

export function describeSearchRecords(check: Check): void {
  check('search documents are kept for the manifest they were made from, and go with it', ({ store }) => {
    store.addSource(fixtures.http());
    store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [tool('alpha')] });
    store.putSearchDocuments(documents(T0));
    expect(store.listSearchDocuments()).toEqual([documents(T0)]);
    // Made from a manifest the store no longer has: not kept.
    store.putSearchDocuments(documents(T0 - 1));
    expect(store.listSearchDocuments()).toEqual([documents(T0)]);
    // A new manifest drops them; documents of the old one are refused.
    store.putManifest({ namespace: 'linear', fetchedAt: T0 + 1, tools: [tool('alpha')] });
    expect(store.listSearchDocuments()).toEqual([]);
    store.putSearchDocuments(documents(T0));
    expect(store.listSearchDocuments()).toEqual([]);
    store.putSearchDocuments(documents(T0 + 1));
    store.putSearchDocuments({ ...documents(T0 + 1), format: '1:fedcba98' });
    expect(store.listSearchDocuments()).toEqual([{ ...documents(T0 + 1), format: '1:fedcba98' }]);
    // Removing the source takes them too; none can be kept for a namespace without a manifest.
    store.removeSource('linear');
    expect(store.listSearchDocuments()).toEqual([]);
    store.putSearchDocuments(documents(T0 + 1));
    expect(store.listSearchDocuments()).toEqual([]);
  });

  check('reviewed contracts read by address, following reviews', ({ store }) => {
    store.addSource(fixtures.http());
    expect(store.listReviewedContracts().size).toBe(0);
    const review = (contract: string) => {
      const alpha = { ...tool('alpha'), contract };
      store.putReview({ address: alpha.address, namespace: 'linear', contract, tool: alpha, reviewedAt: T0 });
    };
    review(digest('b'));
    expect([...store.listReviewedContracts()]).toEqual([['linear.alpha', digest('b')]]);
    review(digest('c'));
    expect(store.listReviewedContracts().get('linear.alpha')).toBe(digest('c'));
    store.removeReview('linear.alpha');
    expect(store.listReviewedContracts().has('linear.alpha')).toBe(false);
  });
}
