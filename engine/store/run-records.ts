/**
 * The store's run records: runs, the journal, pending inputs and decisions (design: "A run, end
 * to end"). The journal is only ever appended to (the migration's triggers refuse anything else
 * even to raw SQL); a run pruned takes its journal, decisions, pending inputs and result blobs
 * (blob-records.ts) with it.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { Decision, JournalEntry, PendingInput, type Run, type RunStatus } from '../contracts/runs.ts';
import { HubError } from '../errors.ts';
import { noRun } from '../not-found.ts';
import type { JournalStart, RunExpectation, RunUpdate } from '../ports.ts';
import type { BlobRecords } from './blob-records.ts';
import { Records } from './records.ts';
import * as rows from './rows.ts';
import * as t from './schema.ts';
import type { StoreCore } from './store-core.ts';

const ENDED_STATUSES: RunStatus[] = ['completed', 'failed', 'cancelled', 'expired'];

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const JournalStartInput = JournalEntry.omit({ outcome: true, settledAt: true });

const runId = sql.placeholder('runId');
const seq = sql.placeholder('seq');

/** A placeholder whose value goes to SQLite as given: `runParams` encodes the JSON columns. */
const raw = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * A run's columns for the prepared insert and update. Their values are encoded by `runParams`,
 * as drizzle would (JSON as text, null as NULL; a placeholder's own encoder would store null as
 * the text 'null').
 */
const runColumns = {
  profile: raw('profile'),
  status: raw('status'),
  code: raw('code'),
  seed: raw('seed'),
  clockOrigin: raw('clockOrigin'),
  attempts: raw('attempts'),
  result: raw('result'),
  error: raw('error'),
  logs: raw('logs'),
  notices: raw('notices'),
  createdAt: raw('createdAt'),
  updatedAt: raw('updatedAt'),
};

const jsonText = (value: unknown) => (value === null ? null : JSON.stringify(value));

function runParams(run: Run) {
  const row = rows.runToRow(run);
  return {
    ...row,
    result: jsonText(row.result),
    error: jsonText(row.error),
    logs: jsonText(row.logs),
    notices: jsonText(row.notices),
  };
}

export class RunRecords extends Records {
  readonly #blobs: BlobRecords;
  readonly #insertRun = this.prepare((db) =>
    db
      .insert(t.hubRuns)
      .values({ id: raw('id'), ...runColumns })
      .prepare(),
  );
  readonly #updateRun = this.prepare((db) =>
    db
      .update(t.hubRuns)
      .set(runColumns)
      .where(eq(t.hubRuns.id, sql.placeholder('id')))
      .prepare(),
  );
  readonly #run = this.prepare((db) =>
    db
      .select()
      .from(t.hubRuns)
      .where(eq(t.hubRuns.id, sql.placeholder('id')))
      .prepare(),
  );
  readonly #runState = this.prepare((db) =>
    db
      .select({ status: t.hubRuns.status, attempts: t.hubRuns.attempts })
      .from(t.hubRuns)
      .where(eq(t.hubRuns.id, sql.placeholder('id')))
      .prepare(),
  );
  readonly #insertJournal = this.prepare((db) =>
    db
      .insert(t.hubJournal)
      .values({
        runId,
        seq,
        address: sql.placeholder('address'),
        connection: sql.placeholder('connection'),
        argsDigest: sql.placeholder('argsDigest'),
        decision: sql.placeholder('decision'),
        startedAt: sql.placeholder('startedAt'),
      })
      .prepare(),
  );
  readonly #insertOutcome = this.prepare((db) =>
    db
      .insert(t.hubJournalOutcomes)
      .values({
        runId,
        seq,
        outcome: sql.placeholder('outcome'),
        settledAt: sql.placeholder('settledAt'),
      })
      .prepare(),
  );
  readonly #liveAttempts = this.prepare((db) =>
    db
      .select({ n: count() })
      .from(t.hubRuns)
      .where(
        and(
          eq(t.hubRuns.status, 'running'),
          gte(t.hubRuns.updatedAt, sql.placeholder('freshSince')),
          gt(t.hubRuns.attempts, 0),
        ),
      )
      .prepare(),
  );
  readonly #journalEntry = this.prepare((db) =>
    db
      .select()
      .from(t.hubJournal)
      .where(and(eq(t.hubJournal.runId, runId), eq(t.hubJournal.seq, seq)))
      .prepare(),
  );
  readonly #journalHas = this.prepare((db) =>
    db
      .select({ seq: t.hubJournal.seq })
      .from(t.hubJournal)
      .where(and(eq(t.hubJournal.runId, runId), eq(t.hubJournal.seq, seq)))
      .prepare(),
  );
  readonly #journalOutcome = this.prepare((db) =>
    db
      .select()
      .from(t.hubJournalOutcomes)
      .where(and(eq(t.hubJournalOutcomes.runId, runId), eq(t.hubJournalOutcomes.seq, seq)))
      .prepare(),
  );
  readonly #journalEntries = this.prepare((db) =>
    db
      .select()
      .from(t.hubJournal)
      .where(eq(t.hubJournal.runId, runId))
      .orderBy(asc(t.hubJournal.seq))
      .prepare(),
  );
  readonly #journalOutcomes = this.prepare((db) =>
    db.select().from(t.hubJournalOutcomes).where(eq(t.hubJournalOutcomes.runId, runId)).prepare(),
  );
  readonly #journalCount = this.prepare((db) =>
    db.select({ n: count() }).from(t.hubJournal).where(eq(t.hubJournal.runId, runId)).prepare(),
  );
  readonly #pendingInputs = this.prepare((db) =>
    db
      .select()
      .from(t.hubPendingInputs)
      .where(eq(t.hubPendingInputs.runId, runId))
      // In the order they were asked (rowid): several inputs at one seq are rounds of asking.
      .orderBy(asc(t.hubPendingInputs.seq), sql`rowid`)
      .prepare(),
  );
  // Ordered here, not in SQL: a run has a handful of decisions, usually none (the call gate asks
  // on every call), and SQLite sets up a sorter for ORDER BY even when nothing comes back.
  readonly #decisions = this.prepare((db) =>
    db.select().from(t.hubDecisions).where(eq(t.hubDecisions.runId, runId)).prepare(),
  );

  constructor(core: StoreCore, blobs: BlobRecords) {
    super(core);
    this.#blobs = blobs;
  }

  // ── runs ──
  createRun(run: Run): void {
    const record = rows.checkRun(run);
    this.once(`a run with id ${record.id} already exists`, () => this.#insertRun().run(runParams(record)));
  }

  getRun(id: string): Run | undefined {
    const row = this.#run().get({ id });
    return row && rows.runFromRow(row);
  }

  getRunState(id: string): Pick<Run, 'status' | 'attempts'> | undefined {
    const row = this.#runState().get({ id });
    return row && rows.runStateFromRow(id, row);
  }

  updateRun(id: string, update: RunUpdate, expected?: RunExpectation): Run {
    return this.write(() => {
      const current = this.getRun(id);
      if (!current) throw noRun(id);
      if (
        expected &&
        (current.attempts !== expected.attempts ||
          (expected.status !== undefined && current.status !== expected.status) ||
          (expected.updatedAt !== undefined && current.updatedAt !== expected.updatedAt))
      ) {
        throw new HubError(
          'conflict',
          `run ${id} moved on (it is ${current.status} at attempt ${current.attempts}); another process is running it`,
        );
      }
      const next = rows.checkRun({ ...current, ...update });
      this.#updateRun().run(runParams(next));
      return next;
    });
  }

  listRuns(filter: { status?: RunStatus; limit?: number } = {}): Run[] {
    const query = this.db.select().from(t.hubRuns);
    const filtered = filter.status ? query.where(eq(t.hubRuns.status, filter.status)) : query;
    return filtered
      .orderBy(desc(t.hubRuns.createdAt), desc(t.hubRuns.id))
      .limit(filter.limit ?? 100)
      .all()
      .map(rows.runFromRow);
  }

  countLiveAttempts(freshSince: number): number {
    return this.#liveAttempts().get({ freshSince })?.n ?? 0;
  }

  pruneRuns(before: number): number {
    return this.write((db) => {
      const ended = db
        .select({ id: t.hubRuns.id })
        .from(t.hubRuns)
        .where(and(inArray(t.hubRuns.status, ENDED_STATUSES), lt(t.hubRuns.updatedAt, before)))
        .all()
        .map((row) => row.id);
      if (ended.length === 0) return 0;
      // The run goes first: the journal's triggers let an entry go only once its run is gone.
      for (const ids of chunks(ended, 500)) {
        db.delete(t.hubRuns).where(inArray(t.hubRuns.id, ids)).run();
        db.delete(t.hubJournalOutcomes).where(inArray(t.hubJournalOutcomes.runId, ids)).run();
        db.delete(t.hubJournal).where(inArray(t.hubJournal.runId, ids)).run();
        db.delete(t.hubDecisions).where(inArray(t.hubDecisions.runId, ids)).run();
        db.delete(t.hubPendingInputs).where(inArray(t.hubPendingInputs.runId, ids)).run();
        this.#blobs.deleteResultBlobs(db, ids);
      }
      return ended.length;
    });
  }

  // ── journal ──
  appendJournal(entry: JournalStart): void {
    const record = rows.checkInput(JournalStartInput, entry, 'journal entry');
    this.write(() => {
      this.requireRun(record.runId);
      this.once(`run ${record.runId} already has a journal entry at seq ${record.seq}`, () =>
        this.#insertJournal().run(record),
      );
    });
  }

  settleJournal(
    runId: string,
    seq: number,
    outcome: NonNullable<JournalEntry['outcome']>,
    settledAt: number,
  ): void {
    const record = rows.checkOutcome(outcome);
    this.write(() => {
      if (!this.#journalHas().get({ runId, seq }))
        throw new HubError('not_found', `run ${runId} has no journal entry at seq ${seq} to settle`);
      this.once(`the call at ${runId}#${seq} is already settled; an outcome is recorded once`, () =>
        this.#insertOutcome().run({ runId, seq, outcome: record, settledAt }),
      );
    });
  }

  getJournalEntry(runId: string, seq: number): JournalEntry | undefined {
    const entry = this.#journalEntry().get({ runId, seq });
    if (!entry) return undefined;
    return rows.journalFromRows(entry, this.#journalOutcome().get({ runId, seq }));
  }

  listJournal(runId: string): JournalEntry[] {
    const entries = this.#journalEntries().all({ runId });
    const outcomes = new Map(
      this.#journalOutcomes()
        .all({ runId })
        .map((row) => [row.seq, row]),
    );
    return entries.map((entry) => rows.journalFromRows(entry, outcomes.get(entry.seq)));
  }

  countJournal(runId: string): number {
    return this.#journalCount().get({ runId })?.n ?? 0;
  }

  // ── pending inputs and decisions ──
  addPendingInput(pending: PendingInput): void {
    const record = rows.checkInput(PendingInput, pending, 'pending input');
    this.write((db) => {
      this.requireRun(record.runId);
      this.once(`a pending input with id ${record.id} already exists`, () =>
        db.insert(t.hubPendingInputs).values(record).run(),
      );
    });
  }

  getPendingInput(id: string): PendingInput | undefined {
    const row = this.db.select().from(t.hubPendingInputs).where(eq(t.hubPendingInputs.id, id)).get();
    return row && rows.pendingFromRow(row);
  }

  listPendingInputs(runId: string): PendingInput[] {
    return this.#pendingInputs().all({ runId }).map(rows.pendingFromRow);
  }

  recordDecision(decision: Decision): void {
    const record = rows.checkInput(Decision, decision, 'decision');
    this.write((db) => {
      const pending = this.getPendingInput(record.pendingId);
      if (!pending) throw new HubError('not_found', `no pending input ${record.pendingId} to decide`);
      if (pending.runId !== record.runId) {
        throw new HubError(
          'invalid_input',
          `pending input ${record.pendingId} belongs to run ${pending.runId}, not ${record.runId}`,
        );
      }
      this.once(`pending input ${record.pendingId} is already decided; a decision is accepted once`, () =>
        db.insert(t.hubDecisions).values(record).run(),
      );
    });
  }

  getDecision(pendingId: string): Decision | undefined {
    const row = this.db.select().from(t.hubDecisions).where(eq(t.hubDecisions.pendingId, pendingId)).get();
    return row && rows.decisionFromRow(row);
  }

  listDecisions(runId: string): Decision[] {
    const found = this.#decisions().all({ runId });
    if (found.length > 1) found.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return found.map(rows.decisionFromRow);
  }
}
