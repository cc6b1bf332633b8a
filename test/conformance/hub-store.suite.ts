/**
 * The HubStore contract. One suite, a runner per runtime: test/node/hub-store.test.ts (the
 * local SQLite file) and test/workers/hub-store.test.ts (the HubObject Durable Object). Runs,
 * the journal and decisions are checked in hub-store-runs.suite.ts, page links and sessions in
 * hub-store-pages.suite.ts, source drafts in hub-store-drafts.suite.ts and refresh leases in
 * hub-store-leases.suite.ts, skills in hub-store-skills.suite.ts, profiles in
 * hub-store-profiles.suite.ts, search documents in hub-store-search.suite.ts, source history in
 * hub-store-history.suite.ts, with the same harness.
 */
import { describe, expect, it } from 'vitest';
import type { Connection } from '../../engine/contracts/connections.ts';
import type { PolicyRule } from '../../engine/contracts/policy.ts';
import type { HubStore } from '../../engine/ports.ts';
import { digest, fixtures, LATEST_SCHEMA_VERSION, rejectsWith, T0 } from './hub-store.fixtures.ts';
import { describeDraftRecords } from './hub-store-drafts.suite.ts';
import { describeHistoryRecords } from './hub-store-history.suite.ts';
import { describeLeaseRecords } from './hub-store-leases.suite.ts';
import { describeNotifyRecords } from './hub-store-notify.suite.ts';
import { describePageRecords } from './hub-store-pages.suite.ts';
import { describeProfileRecords } from './hub-store-profiles.suite.ts';
import { describeRunRecords } from './hub-store-runs.suite.ts';
import { describeSearchRecords } from './hub-store-search.suite.ts';
import { describeSkillRecords } from './hub-store-skills.suite.ts';

export interface StoreUnderTest {
  store: HubStore;
  /** Runs raw SQL against the same database, as an attacker with the file would. */
  exec(sql: string): void;
}

export interface HubStoreHarness {
  name: string;
  /** Runs `body` on a fresh, migrated store inside the adapter's own context. */
  withStore(body: (s: StoreUnderTest) => Promise<void> | void): Promise<void>;
  /** Title -> reason: runs as it.fails, so fixing it forces removing the entry. */
  knownFailures?: Record<string, string>;
}

export function describeHubStore(h: HubStoreHarness): void {
  const check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) =>
    (h.knownFailures?.[title] ? it.fails : it)(title, () => h.withStore(body));

  describe(`HubStore contract: ${h.name}`, () => {
    check('a fresh store is at the latest schema version and keeps the first hub id claimed', ({ store }) => {
      expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      const first = store.claimHubId('hub_a');
      expect(store.claimHubId('hub_b')).toBe(first);
      expect(store.getSetting('prompt_key')).toBeUndefined();
      const key = store.claimSetting('prompt_key', 'k1');
      expect(store.getSetting('prompt_key')).toBe(key);
      expect(store.claimSetting('prompt_key', 'k2')).toBe(key);
      expect(store.claimHubId('hub_c')).toBe(first);
      store.putSetting('last_plan', 'a');
      store.putSetting('last_plan', 'b');
      expect(store.getSetting('last_plan')).toBe('b');
    });

    check(
      'pruning deletes ended runs older than the cutoff with their journal, and keeps the rest',
      ({ store }) => {
        const ended = { ...fixtures.run('run_old'), status: 'completed' as const };
        store.createRun(ended);
        store.appendJournal(fixtures.start('run_old', 0));
        store.settleJournal('run_old', 0, { ok: true, value: 1, ms: 1 }, T0 + 1);
        store.addPendingInput(fixtures.pending('run_old', 1, 'pending_old'));
        store.createRun({ ...fixtures.run('run_recent'), status: 'failed', updatedAt: T0 + 10 });
        store.createRun({ ...fixtures.run('run_waiting'), status: 'awaiting_input' });
        store.createRun(fixtures.run('run_live'));
        store.appendJournal(fixtures.start('run_live', 0));

        expect(store.pruneRuns(T0 + 5)).toBe(1);
        expect(store.getRun('run_old')).toBeUndefined();
        expect(store.listJournal('run_old')).toEqual([]);
        expect(store.getPendingInput('pending_old')).toBeUndefined();
        expect(
          store
            .listRuns()
            .map((r) => r.id)
            .sort(),
        ).toEqual(['run_live', 'run_recent', 'run_waiting']);
        expect(store.listJournal('run_live')).toHaveLength(1);
        expect(store.pruneRuns(T0 + 5)).toBe(0);
      },
    );

    check(
      'sources round-trip, list in namespace order, and a duplicate namespace is a conflict',
      async ({ store }) => {
        store.addSource(fixtures.stdio('memory'));
        store.addSource(fixtures.http('linear'));
        expect(store.getSource('memory')).toEqual(fixtures.stdio('memory'));
        expect(store.listSources().map((s) => s.namespace)).toEqual(['linear', 'memory']);
        await rejectsWith('conflict', () => store.addSource(fixtures.http('memory')));
        const consented = {
          ...fixtures.stdio('memory'),
          consent: { command: ['npx'], at: T0 + 1 },
          updatedAt: T0 + 1,
        };
        store.updateSource(consented);
        expect(store.getSource('memory')).toEqual(consented);
      },
    );

    check('a record that fails its schema is refused as invalid_input', async ({ store }) => {
      await rejectsWith('invalid_input', () =>
        store.addSource({ ...fixtures.stdio(), namespace: 'Not Valid' }),
      );
      await rejectsWith('invalid_input', () =>
        store.addSource({ ...fixtures.stdio(), namespace: 'console' }),
      );
      expect(store.listSources()).toEqual([]);
    });

    check('a manifest replaces the previous one and keeps tool order', ({ store }) => {
      store.addSource(fixtures.http());
      const tool = (name: string) => ({
        address: `linear.${name}`,
        name,
        inputSchema: { type: 'object' },
        contract: digest('b'),
      });
      store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [tool('zeta'), tool('alpha')] });
      store.putManifest({
        namespace: 'linear',
        fetchedAt: T0 + 1,
        server: { name: 'linear', version: '1.0.0' },
        tools: [
          { ...tool('beta'), description: 'Beta.', annotations: { readOnlyHint: true } },
          tool('alpha'),
        ],
      });
      const manifest = store.getManifest('linear');
      expect(manifest?.tools.map((t) => t.name)).toEqual(['beta', 'alpha']);
      expect(manifest?.tools[0]?.annotations).toEqual({ readOnlyHint: true });
      expect(manifest?.server).toEqual({ name: 'linear', version: '1.0.0' });
      expect(store.listManifests()).toHaveLength(1);
      expect(store.listManifestVersions()).toEqual([{ namespace: 'linear', fetchedAt: T0 + 1 }]);
    });

    check('a manifest for a missing source is not_found', async ({ store }) => {
      await rejectsWith('not_found', () =>
        store.putManifest({ namespace: 'ghost', fetchedAt: T0, tools: [] }),
      );
    });

    check('connections hold references only and a source has at most one default', ({ store }) => {
      store.addSource(fixtures.http());
      const conn = (name: string, isDefault: boolean): Connection => ({
        namespace: 'linear',
        name,
        isDefault,
        secrets: [
          { key: `linear/${name}`, delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' } },
        ],
        createdAt: T0,
      });
      store.putConnection(conn('personal', true));
      store.putConnection(conn('work', true));
      expect(store.listConnections('linear').map((c) => [c.name, c.isDefault])).toEqual([
        ['personal', false],
        ['work', true],
      ]);
      store.addSource(fixtures.http('github'));
      store.putConnection({ ...conn('ci', true), namespace: 'github', secrets: [] });
      // With no namespace: every source's connections (what the hub scrubs for), by source and name.
      expect(store.listConnections().map((c) => `${c.namespace}/${c.name}`)).toEqual([
        'github/ci',
        'linear/personal',
        'linear/work',
      ]);
      store.removeConnection('linear', 'personal');
      expect(store.getConnection('linear', 'personal')).toBeUndefined();
      expect(store.listConnections().map((c) => `${c.namespace}/${c.name}`)).toEqual([
        'github/ci',
        'linear/work',
      ]);
    });

    check('removing a source removes its manifest, connections and policy rules', ({ store }) => {
      store.addSource(fixtures.http('linear'));
      store.addSource(fixtures.http('github'));
      store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [] });
      store.putConnection({ namespace: 'linear', name: 'work', isDefault: true, secrets: [], createdAt: T0 });
      const rule = (id: string, target: PolicyRule['target']): PolicyRule => ({
        id,
        target,
        effect: 'deny',
        createdAt: T0,
      });
      store.addPolicyRule(rule('r1', { kind: 'source', namespace: 'linear' }));
      store.addPolicyRule(rule('r2', { kind: 'tool', address: 'linear.create_issue' }));
      store.addPolicyRule(rule('r3', { kind: 'tool', address: 'github.create_issue' }));
      store.removeSource('linear');
      expect(store.getSource('linear')).toBeUndefined();
      expect(store.getManifest('linear')).toBeUndefined();
      expect(store.listConnections('linear')).toEqual([]);
      expect(store.listPolicyRules().map((r) => r.id)).toEqual(['r3']);
    });

    check(
      'a review records what was approved, is replaced on re-review, and goes with its source',
      ({ store }) => {
        store.addSource(fixtures.http());
        const tool = {
          address: 'linear.create_issue',
          name: 'create_issue',
          inputSchema: {},
          contract: digest('d'),
        };
        store.putReview({
          address: tool.address,
          namespace: 'linear',
          contract: tool.contract,
          tool,
          reviewedAt: T0,
        });
        const changed = { ...tool, description: 'Now deletes too.', contract: digest('e') };
        store.putReview({
          address: tool.address,
          namespace: 'linear',
          contract: changed.contract,
          tool: changed,
          reviewedAt: T0 + 1,
        });
        expect(store.getReview('linear.create_issue')?.tool.description).toBe('Now deletes too.');
        expect(store.listReviews('linear')).toHaveLength(1);
        store.removeReview('linear.create_issue');
        expect(store.getReview('linear.create_issue')).toBeUndefined();
        expect(store.listReviews('linear')).toEqual([]);
        store.removeReview('linear.create_issue');
        store.putReview({
          address: tool.address,
          namespace: 'linear',
          contract: tool.contract,
          tool,
          reviewedAt: T0,
        });
        store.removeSource('linear');
        expect(store.getReview('linear.create_issue')).toBeUndefined();
      },
    );

    check('atomically stores everything or nothing', async ({ store }) => {
      await rejectsWith('conflict', () =>
        store.atomically(() => {
          store.addSource(fixtures.http('linear'));
          store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [] });
          store.addSource(fixtures.http('linear'));
        }),
      );
      expect(store.getSource('linear')).toBeUndefined();
      expect(store.getManifest('linear')).toBeUndefined();
      store.atomically(() => {
        store.addSource(fixtures.http('linear'));
        store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [] });
      });
      expect(store.getManifest('linear')?.tools).toEqual([]);
    });

    check('policy rules round-trip with connection and pinned contract', async ({ store }) => {
      const rule: PolicyRule = {
        id: 'rule_1',
        target: { kind: 'tool', address: 'github.create_issue' },
        connection: 'work',
        effect: 'allow',
        contract: digest('c'),
        createdAt: T0,
      };
      store.addPolicyRule(rule);
      expect(store.listPolicyRules()).toEqual([rule]);
      await rejectsWith('conflict', () => store.addPolicyRule(rule));
      store.removePolicyRule('rule_1');
      await rejectsWith('not_found', () => store.removePolicyRule('rule_1'));
    });

    check('one tool is read by its address, and follows its manifest', ({ store }) => {
      store.addSource(fixtures.http());
      const tool = (name: string, contract: string) => ({
        address: `linear.${name}`,
        name,
        inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
        annotations: { readOnlyHint: true },
        contract: digest(contract),
      });
      expect(store.getTool('linear.list_issues')).toBeUndefined();
      store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [tool('list_issues', 'a')] });
      expect(store.getTool('linear.list_issues')).toEqual(tool('list_issues', 'a'));
      store.putManifest({
        namespace: 'linear',
        fetchedAt: T0 + 1,
        tools: [tool('list_issues', 'b'), tool('create_issue', 'c')],
      });
      expect(store.getTool('linear.list_issues')?.contract).toBe(digest('b'));
      expect(store.getTool('linear.create_issue')).toEqual(tool('create_issue', 'c'));
      store.removeSource('linear');
      expect(store.getTool('linear.list_issues')).toBeUndefined();
    });

    check('the journal is counted per run, settled or not, without reading it', ({ store }) => {
      store.createRun(fixtures.run('run_1'));
      store.createRun(fixtures.run('run_2'));
      expect(store.countJournal('run_1')).toBe(0);
      store.appendJournal(fixtures.start('run_1', 0));
      store.appendJournal(fixtures.start('run_1', 4));
      store.settleJournal('run_1', 0, { ok: true, value: 1, ms: 1 }, T0);
      store.appendJournal(fixtures.start('run_2', 0));
      expect(store.countJournal('run_1')).toBe(2);
      expect(store.countJournal('run_2')).toBe(1);
      expect(store.countJournal('ghost')).toBe(0);
    });

    check('the policy rules for one address are its tool’s and its source’s, oldest first', ({ store }) => {
      const rule = (id: string, target: PolicyRule['target'], at: number): PolicyRule => ({
        id,
        target,
        effect: 'ask',
        createdAt: T0 + at,
      });
      store.addPolicyRule(rule('r_tool_late', { kind: 'tool', address: 'linear.create_issue' }, 5));
      store.addPolicyRule(rule('r_source', { kind: 'source', namespace: 'linear' }, 1));
      store.addPolicyRule(rule('r_other_tool', { kind: 'tool', address: 'linear.list_issues' }, 2));
      store.addPolicyRule(rule('r_other_source', { kind: 'source', namespace: 'github' }, 3));
      store.addPolicyRule({
        ...rule('r_tool_work', { kind: 'tool', address: 'linear.create_issue' }, 4),
        connection: 'work',
      });
      expect(store.listPolicyRules('linear.create_issue').map((r) => r.id)).toEqual([
        'r_source',
        'r_tool_work',
        'r_tool_late',
      ]);
      expect(store.listPolicyRules('github.create_issue').map((r) => r.id)).toEqual(['r_other_source']);
      expect(store.listPolicyRules().map((r) => r.id)).toHaveLength(5);
      store.removePolicyRule('r_source');
      expect(store.listPolicyRules('linear.create_issue').map((r) => r.id)).toEqual([
        'r_tool_work',
        'r_tool_late',
      ]);
    });

    check('what the store returns cannot be changed by the caller who got it', ({ store }) => {
      store.addSource(fixtures.http());
      store.putManifest({
        namespace: 'linear',
        fetchedAt: T0,
        tools: [{ address: 'linear.a', name: 'a', inputSchema: { type: 'object' }, contract: digest('a') }],
      });
      const tool = store.getTool('linear.a');
      expect(() => {
        (tool as { name: string }).name = 'b';
      }).toThrow(TypeError);
      expect(() => {
        (tool?.inputSchema as Record<string, unknown>).type = 'array';
      }).toThrow(TypeError);
      expect(store.getTool('linear.a')).toMatchObject({ name: 'a', inputSchema: { type: 'object' } });
      expect(store.getManifest('linear')?.tools[0]?.name).toBe('a');
    });

    check('records read inside a transaction that rolls back are not read again', async ({ store }) => {
      await rejectsWith('conflict', () =>
        store.atomically(() => {
          store.addSource(fixtures.http('linear'));
          store.putManifest({
            namespace: 'linear',
            fetchedAt: T0,
            tools: [{ address: 'linear.a', name: 'a', inputSchema: {}, contract: digest('a') }],
          });
          store.putConnection({
            namespace: 'linear',
            name: 'work',
            isDefault: true,
            secrets: [],
            createdAt: T0,
          });
          expect(store.getTool('linear.a')?.name).toBe('a');
          expect(store.listConnections('linear')).toHaveLength(1);
          expect(store.getSource('linear')).toBeDefined();
          // A failure that is no write of those records: what was read must still go.
          store.createRun(fixtures.run('run_1'));
          store.createRun(fixtures.run('run_1'));
        }),
      );
      expect(store.getTool('linear.a')).toBeUndefined();
      expect(store.listConnections('linear')).toEqual([]);
      expect(store.getSource('linear')).toBeUndefined();
      expect(store.listManifests()).toEqual([]);
    });

    describeRunRecords(check);
    describePageRecords(check);
    describeDraftRecords(check);
    describeLeaseRecords(check);
    describeSkillRecords(check);
    describeProfileRecords(check);
    describeSearchRecords(check);
    describeHistoryRecords(check);
    describeNotifyRecords(check);
  });
}
