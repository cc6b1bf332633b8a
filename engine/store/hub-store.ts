/**
 * The one HubStore implementation, over any synchronous drizzle SQLite database. The Durable
 * Object opens it over ctx.storage, the local host over <home>/hub/hub.db; both call
 * `openHubStore`, which migrates first.
 *
 * Invariants: records are validated on the way in and parsed on the way out; a method with
 * several writes runs them in one IMMEDIATE transaction; the journal is only ever appended to
 * (the migration's triggers refuse anything else even to raw SQL).
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import {
  Connection,
  Decision,
  JournalEntry,
  Manifest,
  PendingInput,
  PolicyRule,
  Run,
  type RunStatus,
  Source,
  ToolReview,
} from '../contracts.ts';
import { HubError } from '../errors.ts';
import type { HubStore, JournalStart, RunUpdate } from '../ports.ts';
import { latestSchemaVersion, type MigrationBundle, migrate } from './migrate.ts';
import * as rows from './rows.ts';
import * as t from './schema.ts';
import type { SyncDb } from './sync-db.ts';

/** Migrates `db` and opens the store over it. */
export function openHubStore(db: SyncDb, bundle: MigrationBundle, now: number, where: string): HubStore {
  const schemaVersion = migrate(db, bundle, now, where);
  if (schemaVersion !== latestSchemaVersion(bundle))
    throw new HubError('internal', 'migration did not complete');
  return new SqliteHubStore(db, schemaVersion);
}

const JournalStartInput = JournalEntry.omit({ outcome: true, settledAt: true });
const OutcomeInput = JournalEntry.shape.outcome.unwrap();

export class SqliteHubStore implements HubStore {
  readonly #db: SyncDb;
  readonly schemaVersion: number;

  constructor(db: SyncDb, schemaVersion: number) {
    this.#db = db;
    this.schemaVersion = schemaVersion;
  }

  claimHubId(candidate: string): string {
    return this.#write((db) => {
      const row = db.select().from(t.hubMeta).where(eq(t.hubMeta.key, 'hub_id')).get();
      if (row) return row.value;
      db.insert(t.hubMeta).values({ key: 'hub_id', value: candidate }).run();
      return candidate;
    });
  }

  // ── sources ──
  addSource(source: Source): void {
    const record = rows.checkInput(Source, source, 'source');
    this.#once(
      `a source named "${record.namespace}" already exists; pick another namespace or remove it first`,
      () => this.#db.insert(t.hubSources).values(rows.sourceToRow(record)).run(),
    );
  }

  updateSource(source: Source): void {
    const record = rows.checkInput(Source, source, 'source');
    this.#write((db) => {
      this.#requireSource(record.namespace);
      db.update(t.hubSources)
        .set(rows.sourceToRow(record))
        .where(eq(t.hubSources.namespace, record.namespace))
        .run();
    });
  }

  getSource(namespace: string): Source | undefined {
    const row = this.#db.select().from(t.hubSources).where(eq(t.hubSources.namespace, namespace)).get();
    return row && rows.sourceFromRow(row);
  }

  listSources(): Source[] {
    return this.#db
      .select()
      .from(t.hubSources)
      .orderBy(asc(t.hubSources.namespace))
      .all()
      .map(rows.sourceFromRow);
  }

  removeSource(namespace: string): void {
    this.#write((db) => {
      this.#requireSource(namespace);
      db.delete(t.hubTools).where(eq(t.hubTools.namespace, namespace)).run();
      db.delete(t.hubManifests).where(eq(t.hubManifests.namespace, namespace)).run();
      db.delete(t.hubConnections).where(eq(t.hubConnections.namespace, namespace)).run();
      db.delete(t.hubPolicyRules)
        .where(and(eq(t.hubPolicyRules.targetKind, 'source'), eq(t.hubPolicyRules.target, namespace)))
        .run();
      for (const rule of db
        .select()
        .from(t.hubPolicyRules)
        .where(eq(t.hubPolicyRules.targetKind, 'tool'))
        .all()) {
        if (rule.target.startsWith(`${namespace}.`)) {
          db.delete(t.hubPolicyRules).where(eq(t.hubPolicyRules.id, rule.id)).run();
        }
      }
      db.delete(t.hubReviews).where(eq(t.hubReviews.namespace, namespace)).run();
      db.delete(t.hubSources).where(eq(t.hubSources.namespace, namespace)).run();
    });
  }

  atomically<T>(body: () => T): T {
    return this.#write(body);
  }

  // ── reviews ──
  putReview(review: ToolReview): void {
    const record = rows.checkInput(ToolReview, review, 'review');
    if (record.tool.address !== record.address || record.tool.contract !== record.contract) {
      throw new HubError(
        'invalid_input',
        `the review of ${record.address} must carry that tool at that contract`,
      );
    }
    this.#write((db) => {
      this.#requireSource(record.namespace);
      db.insert(t.hubReviews)
        .values(record)
        .onConflictDoUpdate({
          target: t.hubReviews.address,
          set: { contract: record.contract, tool: record.tool, reviewedAt: record.reviewedAt },
        })
        .run();
    });
  }

  getReview(address: string): ToolReview | undefined {
    const row = this.#db.select().from(t.hubReviews).where(eq(t.hubReviews.address, address)).get();
    return row && rows.parseRecord(ToolReview, row, `review of ${row.address}`);
  }

  listReviews(namespace: string): ToolReview[] {
    return this.#db
      .select()
      .from(t.hubReviews)
      .where(eq(t.hubReviews.namespace, namespace))
      .orderBy(asc(t.hubReviews.address))
      .all()
      .map((row) => rows.parseRecord(ToolReview, row, `review of ${row.address}`));
  }

  // ── manifests ──
  putManifest(manifest: Manifest): void {
    const record = rows.checkInput(Manifest, manifest, 'manifest');
    const stray = record.tools.find((tool) => !tool.address.startsWith(`${record.namespace}.`));
    if (stray)
      throw new HubError('invalid_input', `tool ${stray.address} is not in namespace "${record.namespace}"`);
    this.#write((db) => {
      this.#requireSource(record.namespace);
      db.delete(t.hubTools).where(eq(t.hubTools.namespace, record.namespace)).run();
      db.delete(t.hubManifests).where(eq(t.hubManifests.namespace, record.namespace)).run();
      db.insert(t.hubManifests)
        .values({
          namespace: record.namespace,
          fetchedAt: record.fetchedAt,
          server: record.server ?? null,
          instructions: record.instructions ?? null,
        })
        .run();
      record.tools.forEach((tool, position) => {
        db.insert(t.hubTools)
          .values({
            ...tool,
            namespace: record.namespace,
            position,
            title: tool.title ?? null,
            description: tool.description ?? null,
            outputSchema: tool.outputSchema ?? null,
            annotations: tool.annotations ?? null,
          })
          .run();
      });
    });
  }

  getManifest(namespace: string): Manifest | undefined {
    const head = this.#db.select().from(t.hubManifests).where(eq(t.hubManifests.namespace, namespace)).get();
    if (!head) return undefined;
    const tools = this.#db
      .select()
      .from(t.hubTools)
      .where(eq(t.hubTools.namespace, namespace))
      .orderBy(asc(t.hubTools.position))
      .all();
    return rows.manifestFromRows(head, tools);
  }

  listManifests(): Manifest[] {
    const heads = this.#db.select().from(t.hubManifests).orderBy(asc(t.hubManifests.namespace)).all();
    const tools = this.#db
      .select()
      .from(t.hubTools)
      .orderBy(asc(t.hubTools.namespace), asc(t.hubTools.position))
      .all();
    return heads.map((head) =>
      rows.manifestFromRows(
        head,
        tools.filter((tool) => tool.namespace === head.namespace),
      ),
    );
  }

  listManifestVersions(): { namespace: string; fetchedAt: number }[] {
    return this.#db
      .select({ namespace: t.hubManifests.namespace, fetchedAt: t.hubManifests.fetchedAt })
      .from(t.hubManifests)
      .orderBy(asc(t.hubManifests.namespace))
      .all();
  }

  // ── connections ──
  putConnection(connection: Connection): void {
    const record = rows.checkInput(Connection, connection, 'connection');
    this.#write((db) => {
      this.#requireSource(record.namespace);
      if (record.isDefault) {
        db.update(t.hubConnections)
          .set({ isDefault: false })
          .where(eq(t.hubConnections.namespace, record.namespace))
          .run();
      }
      db.insert(t.hubConnections)
        .values({ ...record, secrets: rows.secretsToColumn(record.secrets) })
        .onConflictDoUpdate({
          target: [t.hubConnections.namespace, t.hubConnections.name],
          set: { isDefault: record.isDefault, secrets: rows.secretsToColumn(record.secrets) },
        })
        .run();
    });
  }

  getConnection(namespace: string, name: string): Connection | undefined {
    const row = this.#db
      .select()
      .from(t.hubConnections)
      .where(and(eq(t.hubConnections.namespace, namespace), eq(t.hubConnections.name, name)))
      .get();
    return row && rows.connectionFromRow(row);
  }

  listConnections(namespace: string): Connection[] {
    return this.#db
      .select()
      .from(t.hubConnections)
      .where(eq(t.hubConnections.namespace, namespace))
      .orderBy(asc(t.hubConnections.name))
      .all()
      .map(rows.connectionFromRow);
  }

  removeConnection(namespace: string, name: string): void {
    const removed = this.#db
      .delete(t.hubConnections)
      .where(and(eq(t.hubConnections.namespace, namespace), eq(t.hubConnections.name, name)))
      .returning({ name: t.hubConnections.name })
      .all();
    if (removed.length === 0) {
      throw new HubError(
        'not_found',
        `no connection "${namespace}/${name}"; list them with \`capabilities hub connections ${namespace}\``,
      );
    }
  }

  // ── policy ──
  addPolicyRule(rule: PolicyRule): void {
    const record = rows.checkInput(PolicyRule, rule, 'policy rule');
    this.#once(`a policy rule with id ${record.id} already exists`, () =>
      this.#db.insert(t.hubPolicyRules).values(rows.policyRuleToRow(record)).run(),
    );
  }

  listPolicyRules(): PolicyRule[] {
    return this.#db
      .select()
      .from(t.hubPolicyRules)
      .orderBy(asc(t.hubPolicyRules.createdAt), asc(t.hubPolicyRules.id))
      .all()
      .map(rows.policyRuleFromRow);
  }

  removePolicyRule(id: string): void {
    const removed = this.#db
      .delete(t.hubPolicyRules)
      .where(eq(t.hubPolicyRules.id, id))
      .returning({ id: t.hubPolicyRules.id })
      .all();
    if (removed.length === 0) throw new HubError('not_found', `no policy rule with id ${id}`);
  }

  // ── runs ──
  createRun(run: Run): void {
    const record = rows.checkInput(Run, run, 'run');
    this.#once(`a run with id ${record.id} already exists`, () =>
      this.#db.insert(t.hubRuns).values(rows.runToRow(record)).run(),
    );
  }

  getRun(id: string): Run | undefined {
    const row = this.#db.select().from(t.hubRuns).where(eq(t.hubRuns.id, id)).get();
    return row && rows.runFromRow(row);
  }

  updateRun(id: string, update: RunUpdate): Run {
    return this.#write(() => {
      const current = this.getRun(id);
      if (!current) throw new HubError('not_found', `no run ${id}; list runs with \`capabilities hub runs\``);
      const next = rows.checkInput(Run, { ...current, ...update }, 'run');
      this.#db.update(t.hubRuns).set(rows.runToRow(next)).where(eq(t.hubRuns.id, id)).run();
      return next;
    });
  }

  listRuns(filter: { status?: RunStatus; limit?: number } = {}): Run[] {
    const query = this.#db.select().from(t.hubRuns);
    const filtered = filter.status ? query.where(eq(t.hubRuns.status, filter.status)) : query;
    return filtered
      .orderBy(desc(t.hubRuns.createdAt), desc(t.hubRuns.id))
      .limit(filter.limit ?? 100)
      .all()
      .map(rows.runFromRow);
  }

  // ── journal ──
  appendJournal(entry: JournalStart): void {
    const record = rows.checkInput(JournalStartInput, entry, 'journal entry');
    this.#write((db) => {
      this.#requireRun(record.runId);
      this.#once(`run ${record.runId} already has a journal entry at seq ${record.seq}`, () =>
        db.insert(t.hubJournal).values(record).run(),
      );
    });
  }

  settleJournal(
    runId: string,
    seq: number,
    outcome: NonNullable<JournalEntry['outcome']>,
    settledAt: number,
  ): void {
    const record = rows.checkInput(OutcomeInput, outcome, 'call outcome');
    this.#write((db) => {
      const entry = db
        .select({ seq: t.hubJournal.seq })
        .from(t.hubJournal)
        .where(and(eq(t.hubJournal.runId, runId), eq(t.hubJournal.seq, seq)))
        .get();
      if (!entry)
        throw new HubError('not_found', `run ${runId} has no journal entry at seq ${seq} to settle`);
      this.#once(`the call at ${runId}#${seq} is already settled; an outcome is recorded once`, () =>
        db.insert(t.hubJournalOutcomes).values({ runId, seq, outcome: record, settledAt }).run(),
      );
    });
  }

  getJournalEntry(runId: string, seq: number): JournalEntry | undefined {
    const entry = this.#db
      .select()
      .from(t.hubJournal)
      .where(and(eq(t.hubJournal.runId, runId), eq(t.hubJournal.seq, seq)))
      .get();
    if (!entry) return undefined;
    const outcome = this.#db
      .select()
      .from(t.hubJournalOutcomes)
      .where(and(eq(t.hubJournalOutcomes.runId, runId), eq(t.hubJournalOutcomes.seq, seq)))
      .get();
    return rows.journalFromRows(entry, outcome);
  }

  listJournal(runId: string): JournalEntry[] {
    const entries = this.#db
      .select()
      .from(t.hubJournal)
      .where(eq(t.hubJournal.runId, runId))
      .orderBy(asc(t.hubJournal.seq))
      .all();
    const outcomes = new Map(
      this.#db
        .select()
        .from(t.hubJournalOutcomes)
        .where(eq(t.hubJournalOutcomes.runId, runId))
        .all()
        .map((row) => [row.seq, row]),
    );
    return entries.map((entry) => rows.journalFromRows(entry, outcomes.get(entry.seq)));
  }

  // ── pending inputs and decisions ──
  addPendingInput(pending: PendingInput): void {
    const record = rows.checkInput(PendingInput, pending, 'pending input');
    this.#write((db) => {
      this.#requireRun(record.runId);
      this.#once(
        `run ${record.runId} already has a pending input for seq ${record.seq} (or id ${record.id} is taken)`,
        () => db.insert(t.hubPendingInputs).values(record).run(),
      );
    });
  }

  getPendingInput(id: string): PendingInput | undefined {
    const row = this.#db.select().from(t.hubPendingInputs).where(eq(t.hubPendingInputs.id, id)).get();
    return row && rows.pendingFromRow(row);
  }

  listPendingInputs(runId: string): PendingInput[] {
    return this.#db
      .select()
      .from(t.hubPendingInputs)
      .where(eq(t.hubPendingInputs.runId, runId))
      .orderBy(asc(t.hubPendingInputs.seq))
      .all()
      .map(rows.pendingFromRow);
  }

  recordDecision(decision: Decision): void {
    const record = rows.checkInput(Decision, decision, 'decision');
    this.#write((db) => {
      const pending = this.getPendingInput(record.pendingId);
      if (!pending) throw new HubError('not_found', `no pending input ${record.pendingId} to decide`);
      if (pending.runId !== record.runId) {
        throw new HubError(
          'invalid_input',
          `pending input ${record.pendingId} belongs to run ${pending.runId}, not ${record.runId}`,
        );
      }
      this.#once(`pending input ${record.pendingId} is already decided; a decision is accepted once`, () =>
        db.insert(t.hubDecisions).values(record).run(),
      );
    });
  }

  getDecision(pendingId: string): Decision | undefined {
    const row = this.#db.select().from(t.hubDecisions).where(eq(t.hubDecisions.pendingId, pendingId)).get();
    return row && rows.decisionFromRow(row);
  }

  listDecisions(runId: string): Decision[] {
    return this.#db
      .select()
      .from(t.hubDecisions)
      .where(eq(t.hubDecisions.runId, runId))
      .orderBy(asc(t.hubDecisions.at), asc(t.hubDecisions.id))
      .all()
      .map(rows.decisionFromRow);
  }

  // ── helpers ──

  /** Runs `body` in one IMMEDIATE transaction (the write lock first, so no upgrade can fail). */
  #write<T>(body: (db: SyncDb) => T): T {
    return this.#db.transaction(() => body(this.#db), { behavior: 'immediate' });
  }

  /** Runs an insert; a unique or primary-key violation becomes a `conflict` with `message`. */
  #once(message: string, insert: () => unknown): void {
    try {
      insert();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HubError('conflict', message, { cause: error });
      throw error;
    }
  }

  #requireSource(namespace: string): void {
    if (
      !this.#db
        .select({ n: t.hubSources.namespace })
        .from(t.hubSources)
        .where(eq(t.hubSources.namespace, namespace))
        .get()
    ) {
      throw new HubError(
        'not_found',
        `no source "${namespace}"; list sources with \`capabilities hub list\``,
      );
    }
  }

  #requireRun(runId: string): void {
    if (!this.#db.select({ id: t.hubRuns.id }).from(t.hubRuns).where(eq(t.hubRuns.id, runId)).get()) {
      throw new HubError('not_found', `no run ${runId}`);
    }
  }
}

/** SQLite reports a duplicate key the same way in workerd and better-sqlite3, in the message. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (
      /UNIQUE constraint failed|PRIMARY KEY constraint failed|SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)/.test(
        e.message,
      )
    )
      return true;
    if ('code' in e && typeof e.code === 'string' && /SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)/.test(e.code))
      return true;
  }
  return false;
}
