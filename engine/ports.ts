/**
 * What a runtime must provide to the engine. The engine never reaches a runtime except
 * through these; each port has one contract suite in test/conformance/ that every
 * implementation runs. Ports for the sandbox, secrets and sources arrive with their issues.
 */
import type {
  Connection,
  Decision,
  JournalEntry,
  Manifest,
  PendingInput,
  PolicyRule,
  Run,
  RunStatus,
  Source,
  ToolReview,
} from './contracts.ts';

/** Wall-clock time in epoch milliseconds. The engine never calls Date.now() itself. */
export interface Clock {
  now(): number;
}

/** Randomness for ids, seeds and tokens. The engine never calls Math.random() itself. */
export interface Random {
  /** `length` cryptographically strong random bytes. */
  bytes(length: number): Uint8Array;
}

/** The fields of a run that change after it is created. */
export type RunUpdate = Partial<
  Pick<Run, 'status' | 'attempts' | 'result' | 'error' | 'logs' | 'notices'>
> & {
  updatedAt: number;
};

/** A journal entry as it is appended when the call starts: no outcome yet. */
export type JournalStart = Omit<JournalEntry, 'outcome' | 'settledAt'>;

/**
 * The hub's records. Synchronous: both implementations sit on synchronous SQLite, and a
 * method that does several writes does them in one transaction, so no other request can
 * interleave with it (which a Durable Object's input gate also relies on).
 *
 * Errors are HubErrors: `conflict` for a duplicate or a second settle/decision, `not_found`
 * for a missing parent record, `invalid_input` for a record that fails its schema.
 */
export interface HubStore {
  /** The schema version the store was migrated to. */
  readonly schemaVersion: number;
  /** The id of the hub this store belongs to; set once, by the first caller. */
  claimHubId(candidate: string): string;

  addSource(source: Source): void;
  updateSource(source: Source): void;
  getSource(namespace: string): Source | undefined;
  listSources(): Source[];
  /** Removes the source with its manifest, connections, policy rules and reviews. */
  removeSource(namespace: string): void;

  /**
   * Runs `body` as one transaction: every write in it lands, or none does (a source is
   * stored whole or not at all). `body` must not await.
   */
  atomically<T>(body: () => T): T;

  /** Replaces the source's manifest and its tools. */
  putManifest(manifest: Manifest): void;
  getManifest(namespace: string): Manifest | undefined;
  listManifests(): Manifest[];

  /** Adds or replaces a connection; a default one clears the source's other default. */
  putConnection(connection: Connection): void;
  getConnection(namespace: string, name: string): Connection | undefined;
  listConnections(namespace: string): Connection[];
  removeConnection(namespace: string, name: string): void;

  /** Records (or replaces) what a person approved for a tool. */
  putReview(review: ToolReview): void;
  getReview(address: string): ToolReview | undefined;
  listReviews(namespace: string): ToolReview[];

  addPolicyRule(rule: PolicyRule): void;
  listPolicyRules(): PolicyRule[];
  removePolicyRule(id: string): void;

  createRun(run: Run): void;
  getRun(id: string): Run | undefined;
  updateRun(id: string, update: RunUpdate): Run;
  listRuns(filter?: { status?: RunStatus; limit?: number }): Run[];

  /** Appends a call as it starts. A second entry at the same (run, seq) is a conflict. */
  appendJournal(entry: JournalStart): void;
  /** Appends the outcome of a started call, once. */
  settleJournal(
    runId: string,
    seq: number,
    outcome: NonNullable<JournalEntry['outcome']>,
    settledAt: number,
  ): void;
  getJournalEntry(runId: string, seq: number): JournalEntry | undefined;
  /** The run's entries in seq order, each with its outcome when settled. */
  listJournal(runId: string): JournalEntry[];

  addPendingInput(pending: PendingInput): void;
  getPendingInput(id: string): PendingInput | undefined;
  listPendingInputs(runId: string): PendingInput[];

  /** Records a person's decision on a pending input, once. */
  recordDecision(decision: Decision): void;
  getDecision(pendingId: string): Decision | undefined;
  listDecisions(runId: string): Decision[];
}
