/**
 * The HubStore contract. One suite, a runner per runtime: test/node/hub-store.test.ts (the
 * local SQLite file) and test/workers/hub-store.test.ts (the HubObject Durable Object).
 */
import { describe, expect, it } from 'vitest';
import type {
  Connection,
  JournalEntry,
  PendingInput,
  PolicyRule,
  Run,
  Source,
} from '../../engine/contracts.ts';
import type { HubError } from '../../engine/errors.ts';
import type { HubStore } from '../../engine/ports.ts';
import journal from '../../migrations/meta/_journal.json';
import { hubErrorOf } from '../hub-error.ts';

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

const T0 = 1_800_000_000_000;
/** The number of migrations in migrations/ (meta/_journal.json). */
const LATEST_SCHEMA_VERSION = journal.entries.length;
const digest = (c: string) => c.repeat(64);

export const fixtures = {
  stdio: (namespace = 'memory'): Source => ({
    kind: 'mcp-stdio',
    namespace,
    command: ['npx', '-y', '@modelcontextprotocol/server-memory'],
    env: {},
    consent: null,
    addedAt: T0,
    updatedAt: T0,
  }),
  http: (namespace = 'linear'): Source => ({
    kind: 'mcp-http',
    namespace,
    url: 'https://mcp.linear.app/mcp',
    allowedHosts: ['mcp.linear.app'],
    addedAt: T0,
    updatedAt: T0,
  }),
  run: (id = 'run_1'): Run => ({
    id,
    profile: 'default',
    status: 'running',
    code: 'return 1',
    seed: 'seed-1',
    clockOrigin: T0,
    attempts: 1,
    logs: [],
    notices: [],
    createdAt: T0,
    updatedAt: T0,
  }),
  start: (runId: string, seq: number): Omit<JournalEntry, 'outcome' | 'settledAt'> => ({
    runId,
    seq,
    address: 'linear.create_issue',
    connection: null,
    argsDigest: digest('a'),
    decision: { effect: 'allow', by: 'policy', reason: 'reads: declared read-only' },
    startedAt: T0 + seq,
  }),
  pending: (runId: string, seq: number, id = `pending_${seq}`): PendingInput => ({
    id,
    runId,
    seq,
    kind: 'approval',
    address: 'linear.create_issue',
    connection: 'work',
    summary: 'Create an issue.',
    argsPreview: '{"title":"x"}',
    reason: 'writes: not declared read-only',
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
  }),
};

async function rejectsWith(code: HubError['code'], body: () => unknown): Promise<void> {
  expect((await hubErrorOf(body)).code).toBe(code);
}

export function describeHubStore(h: HubStoreHarness): void {
  const check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) =>
    (h.knownFailures?.[title] ? it.fails : it)(title, () => h.withStore(body));

  describe(`HubStore contract: ${h.name}`, () => {
    check('a fresh store is at the latest schema version and keeps the first hub id claimed', ({ store }) => {
      expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      const first = store.claimHubId('hub_a');
      expect(store.claimHubId('hub_b')).toBe(first);
      const key = store.claimSetting('prompt_key', 'k1');
      expect(store.claimSetting('prompt_key', 'k2')).toBe(key);
      expect(store.claimHubId('hub_c')).toBe(first);
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
      store.removeConnection('linear', 'personal');
      expect(store.getConnection('linear', 'personal')).toBeUndefined();
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

    check('runs are created once, updated in place and listed newest first by status', async ({ store }) => {
      store.createRun(fixtures.run('run_1'));
      store.createRun({ ...fixtures.run('run_2'), createdAt: T0 + 5 });
      await rejectsWith('conflict', () => store.createRun(fixtures.run('run_1')));
      const done = store.updateRun('run_1', {
        status: 'completed',
        result: { ok: [1, 2] },
        updatedAt: T0 + 9,
      });
      expect(done.result).toEqual({ ok: [1, 2] });
      expect(store.getRun('run_1')).toEqual(done);
      expect(store.listRuns().map((r) => r.id)).toEqual(['run_2', 'run_1']);
      expect(store.listRuns({ status: 'completed' }).map((r) => r.id)).toEqual(['run_1']);
      await rejectsWith('not_found', () => store.updateRun('nope', { updatedAt: T0 }));
    });

    check('a duplicate journal seq is a conflict', async ({ store }) => {
      store.createRun(fixtures.run());
      store.appendJournal(fixtures.start('run_1', 0));
      await rejectsWith('conflict', () => store.appendJournal(fixtures.start('run_1', 0)));
      expect(store.listJournal('run_1')).toHaveLength(1);
    });

    check('a journal entry needs its run', async ({ store }) => {
      await rejectsWith('not_found', () => store.appendJournal(fixtures.start('ghost', 0)));
    });

    check('an outcome settles its entry once; an unsettled entry stays in doubt', async ({ store }) => {
      store.createRun(fixtures.run());
      store.appendJournal(fixtures.start('run_1', 0));
      store.appendJournal(fixtures.start('run_1', 1));
      const outcome = { ok: true as const, value: { id: 7 }, ms: 12 };
      store.settleJournal('run_1', 0, outcome, T0 + 50);
      await rejectsWith('conflict', () =>
        store.settleJournal(
          'run_1',
          0,
          { ok: false, error: { code: 'x', message: 'y', retryable: false }, ms: 1 },
          T0,
        ),
      );
      await rejectsWith('not_found', () => store.settleJournal('run_1', 9, outcome, T0));
      const journal = store.listJournal('run_1');
      expect(journal.map((e) => [e.seq, e.outcome])).toEqual([
        [0, outcome],
        [1, undefined],
      ]);
      expect(store.getJournalEntry('run_1', 0)?.settledAt).toBe(T0 + 50);
    });

    check('the journal refuses update and delete even to raw SQL', ({ store, exec }) => {
      store.createRun(fixtures.run());
      store.appendJournal(fixtures.start('run_1', 0));
      store.settleJournal('run_1', 0, { ok: true, value: 1, ms: 1 }, T0);
      expect(() => exec(`UPDATE hub_journal SET address = 'linear.other' WHERE run_id = 'run_1'`)).toThrow(
        /append-only/,
      );
      expect(() => exec(`DELETE FROM hub_journal WHERE run_id = 'run_1'`)).toThrow(/append-only/);
      expect(() => exec(`UPDATE hub_journal_outcomes SET settled_at = 0`)).toThrow(/append-only/);
      expect(() => exec(`DELETE FROM hub_journal_outcomes`)).toThrow(/append-only/);
      expect(store.getJournalEntry('run_1', 0)?.address).toBe('linear.create_issue');
      // Retention removes a run first; only then may its journal go.
      exec(`DELETE FROM hub_runs WHERE id = 'run_1'`);
      exec(`DELETE FROM hub_journal_outcomes WHERE run_id = 'run_1'`);
      exec(`DELETE FROM hub_journal WHERE run_id = 'run_1'`);
      expect(store.listJournal('run_1')).toEqual([]);
    });

    check('a pending input is decided once, for that exact pending call', async ({ store, exec }) => {
      store.createRun(fixtures.run('run_1'));
      store.createRun(fixtures.run('run_2'));
      store.addPendingInput(fixtures.pending('run_1', 3));
      await rejectsWith('conflict', () =>
        store.addPendingInput(fixtures.pending('run_1', 3, 'pending_other')),
      );
      const decision = {
        id: 'dec_1',
        pendingId: 'pending_3',
        runId: 'run_1',
        choice: 'run' as const,
        channel: 'cli' as const,
        who: 'ada',
        at: T0 + 1,
      };
      await rejectsWith('invalid_input', () => store.recordDecision({ ...decision, runId: 'run_2' }));
      await rejectsWith('not_found', () => store.recordDecision({ ...decision, pendingId: 'pending_9' }));
      store.recordDecision(decision);
      await rejectsWith('conflict', () => store.recordDecision({ ...decision, id: 'dec_2', choice: 'deny' }));
      expect(store.getDecision('pending_3')).toEqual(decision);
      expect(store.listDecisions('run_1')).toEqual([decision]);
      expect(() => exec(`UPDATE hub_decisions SET choice = 'always'`)).toThrow(/recorded once/);
      expect(store.listPendingInputs('run_1').map((p) => p.id)).toEqual(['pending_3']);
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

    check('a run keeps its result, error, logs and notices through create and update', ({ store }) => {
      const run: Run = {
        ...fixtures.run('run_1'),
        result: { list: [1, 'two', null, { three: true }] },
        error: { code: 'x', message: 'y', hint: 'z' },
        logs: ['a', 'b'],
        notices: ['n'],
      };
      store.createRun(run);
      expect(store.getRun('run_1')).toEqual(run);
      const next = store.updateRun('run_1', { result: null, logs: ['a', 'b', 'c'], updatedAt: T0 + 1 });
      expect(next.result).toBeNull();
      expect(store.getRun('run_1')).toMatchObject({
        logs: ['a', 'b', 'c'],
        error: run.error,
        updatedAt: T0 + 1,
      });
      store.createRun(fixtures.run('run_2'));
      expect(store.getRun('run_2')).toEqual(fixtures.run('run_2'));
    });
  });
}
