/**
 * The HubStore contract, part eight: each source's history (engine/store/history-records.ts),
 * what a person changed on it. Called from describeHubStore (hub-store.suite.ts), so it runs in
 * both runtimes. Events list newest first, per namespace or all, up to a limit; an event is
 * validated on the way in and written once; a removal stays on record after its source is gone.
 */
import { expect } from 'vitest';
import type { SourceEvent } from '../../engine/contracts/source-history.ts';
import { digest, fixtures, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const event = (id: string, namespace: string, at: number, change: SourceEvent['change']): SourceEvent => ({
  id,
  namespace,
  who: 'github:ana',
  change,
  at,
});

export function describeHistoryRecords(check: Check): void {
  check(
    'a source’s history lists newest first, per namespace, and outlives the source',
    async ({ store }) => {
      store.addSource(fixtures.http('linear'));
      const rule = event('e1', 'linear', T0, {
        kind: 'rule',
        address: 'linear.create_issue',
        effect: 'allow',
        contract: digest('a'),
      });
      const reset = event('e2', 'linear', T0, {
        kind: 'rule',
        address: 'linear.create_issue',
        effect: 'default',
        contract: digest('a'),
      });
      const other = event('e3', 'github', T0 + 1, { kind: 'reviewed', tools: 2 });
      store.addSourceEvent(rule);
      store.addSourceEvent(reset);
      store.addSourceEvent(other);
      // Within one millisecond, the later written comes first.
      expect(store.listSourceEvents({ namespace: 'linear' })).toEqual([reset, rule]);
      expect(store.listSourceEvents()).toEqual([other, reset, rule]);
      expect(store.listSourceEvents({ limit: 1 })).toEqual([other]);
      await rejectsWith('conflict', () => store.addSourceEvent(rule));
      await rejectsWith('invalid_input', () =>
        store.addSourceEvent({
          ...rule,
          id: 'e4',
          change: { kind: 'rule', address: 'x', effect: 'maybe' } as never,
        }),
      );
      const removed = event('e5', 'linear', T0 + 2, { kind: 'removed', tools: 1, connections: 0, rules: 1 });
      store.removeSource('linear');
      store.addSourceEvent(removed);
      expect(store.listSourceEvents({ namespace: 'linear' })).toEqual([removed, reset, rule]);
    },
  );
}
