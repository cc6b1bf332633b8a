/**
 * What a runtime must provide to the engine. The engine never reaches a runtime except
 * through these; each port has one contract suite in test/conformance/ that every
 * implementation runs. Three more ports live beside what uses them: SecretStore
 * (engine/secrets/secret-store.ts), SourceConnector (engine/connectors/connector.ts) and Sandbox
 * (engine/sandbox/sandbox.ts).
 */
import type { Connection } from './contracts/connections.ts';
import type { NotificationOutcome, NotifySettings, PushDevice } from './contracts/notify.ts';
import type { PageLink, PageLinkRedemption, PageSession } from './contracts/pages.ts';
import type { PolicyRule } from './contracts/policy.ts';
import type { Profile } from './contracts/profiles.ts';
import type { Decision, JournalEntry, PendingInput, Run, RunStatus } from './contracts/runs.ts';
import type { Skill, SkillFileData } from './contracts/skills.ts';
import type { SourceDraftRecord } from './contracts/source-drafts.ts';
import type { SourceEvent } from './contracts/source-history.ts';
import type { Manifest, ManifestTool, Source, ToolReview } from './contracts/sources.ts';

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

/** What a conditional run update expects to find. */
export interface RunExpectation {
  status?: RunStatus;
  attempts: number;
  /** When set, the run must not have been touched since (a live attempt's heartbeat touches it). */
  updatedAt?: number;
}

/** A tool result kept out of line for its run (engine/runs/result-handles.ts), without its text. */
export interface ResultBlobInfo {
  handle: string;
  runId: string;
  /** The text's size in UTF-8 bytes. */
  bytes: number;
  mediaType: string;
  createdAt: number;
}

/** A result blob with its text (already scrubbed). */
export interface ResultBlob extends ResultBlobInfo {
  text: string;
}

/**
 * A refresh lease: `holder` (one id per refresher, so per process) refreshes the OAuth token
 * stored under the secret key `key` until `expiresAt` (epoch ms, the Clock's time).
 */
export interface RefreshLease {
  key: string;
  holder: string;
  expiresAt: number;
}

/** A journal entry as it is appended when the call starts: no outcome yet. */
export type JournalStart = Omit<JournalEntry, 'outcome' | 'settledAt'>;

/** A namespace's search documents as stored: made from its manifest of `fetchedAt` by search code of `format`. */
export interface StoredSearchDocuments {
  namespace: string;
  fetchedAt: number;
  format: string;
  /** Checked by the search code when read (a cache, never trusted as a record). */
  documents: readonly unknown[];
}

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
  /**
   * A hub setting, set once: the stored value, or `candidate` stored and returned when there is
   * none (so two processes racing to create it agree). The client-prompt signing key lives here.
   */
  claimSetting(key: string, candidate: string): string;
  /** A hub setting's value, if it has been set; never creates one. */
  getSetting(key: string): string | undefined;
  /** Sets (or replaces) a hub setting that changes over time, such as the last plan applied. */
  putSetting(key: string, value: string): void;

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
  /** One tool of a stored manifest, by its address: what a call needs, without the manifest. */
  getTool(address: string): ManifestTool | undefined;
  listManifests(): Manifest[];
  /** Each manifest's namespace and fetch time: cheap, for noticing which ones changed. */
  listManifestVersions(): { namespace: string; fetchedAt: number }[];

  /** What search kept of each namespace's tools (engine/search/stored-documents.ts), unread. */
  listSearchDocuments(): StoredSearchDocuments[];
  /**
   * Keeps what search made of a namespace's tools; nothing when the namespace's manifest is no
   * longer the one fetched at `fetchedAt` (a manifest stored or removed drops its documents).
   */
  putSearchDocuments(record: StoredSearchDocuments): void;

  /** Adds or replaces a connection; a default one clears the source's other default. */
  putConnection(connection: Connection): void;
  getConnection(namespace: string, name: string): Connection | undefined;
  /** A source's connections by name; with no namespace, every source's (for scrubbing). */
  listConnections(namespace?: string): Connection[];
  removeConnection(namespace: string, name: string): void;

  /** Records (or replaces) what a person approved for a tool. */
  putReview(review: ToolReview): void;
  /** Forgets what a person approved for a tool (a tool the hub no longer keeps); no error if none. */
  removeReview(address: string): void;
  getReview(address: string): ToolReview | undefined;
  listReviews(namespace: string): ToolReview[];
  /** The contract a person reviewed, by tool address, without reading the reviewed tools. */
  listReviewedContracts(): ReadonlyMap<string, string>;

  addPolicyRule(rule: PolicyRule): void;
  /**
   * Every rule, oldest first; with `forAddress`, only the rules that can apply to a call of that
   * tool (on the tool, or on its source), in the same order.
   */
  listPolicyRules(forAddress?: string): PolicyRule[];
  removePolicyRule(id: string): void;

  createRun(run: Run): void;
  getRun(id: string): Run | undefined;
  /**
   * A run's status and attempt number alone, without reading the rest of it: what the call gate
   * checks on every call (only the attempt that owns a running run sends).
   */
  getRunState(id: string): Pick<Run, 'status' | 'attempts'> | undefined;
  /**
   * Updates a run. With `expected`, only while the run is still in that state (its status and
   * attempt number): otherwise a `conflict`, and nothing changes. Two processes claiming the
   * same attempt (an `approve` and a model's resume at once) thus get one winner.
   */
  updateRun(id: string, update: RunUpdate, expected?: RunExpectation): Run;
  listRuns(filter?: { status?: RunStatus; limit?: number }): Run[];
  /**
   * Runs whose attempt is live: running, claimed (attempts > 0), and marked at or after
   * `freshSince` (a live attempt marks its run every second). A run created for a new execute is
   * counted from the moment it is claimed. Call it inside `atomically` with the claim it guards.
   */
  countLiveAttempts(freshSince: number): number;
  /**
   * Deletes runs that ended (completed, failed, cancelled, expired) and were last updated
   * before `before`, with their journal, pending inputs, decisions and result blobs; returns how many.
   */
  pruneRuns(before: number): number;

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
  /** How many entries the run's journal holds, settled or not (without reading them). */
  countJournal(runId: string): number;

  addPendingInput(pending: PendingInput): void;
  getPendingInput(id: string): PendingInput | undefined;
  listPendingInputs(runId: string): PendingInput[];

  /** Records a person's decision on a pending input, once. */
  recordDecision(decision: Decision): void;
  getDecision(pendingId: string): Decision | undefined;
  listDecisions(runId: string): Decision[];

  /** Stores a one-time page link (by its token's hash; never the token). A duplicate is a conflict. */
  addPageLink(link: PageLink): void;
  getPageLink(tokenHash: string): PageLink | undefined;
  /**
   * Exchanges a link for a session, once: in one transaction the link is marked used at `now`
   * and the session (with the link's target) is stored. Two exchanges of one link, from any
   * processes, open one session; the other is refused `used`. A link past `expiresAt` is
   * `expired`, one never stored `unknown`.
   */
  redeemPageLink(tokenHash: string, session: Omit<PageSession, 'target'>, now: number): PageLinkRedemption;
  /** A page session by its token's hash, expired or not (the caller checks `expiresAt`). */
  getPageSession(tokenHash: string): PageSession | undefined;
  /** Ends a page session; no error if there is none. */
  removePageSession(tokenHash: string): void;
  /** Deletes links and sessions whose `expiresAt` is at or before `now`; returns how many. */
  sweepPageAccess(now: number): number;

  /** Stores a source draft (a source being added from the dashboard). A duplicate id is a conflict. */
  addSourceDraft(draft: SourceDraftRecord): void;
  /** A source draft by id, expired or not (the caller checks `expiresAt`). */
  getSourceDraft(id: string): SourceDraftRecord | undefined;
  /** Deletes a source draft and returns it, in one transaction: of two takers, one gets it. */
  takeSourceDraft(id: string): SourceDraftRecord | undefined;
  /** Deletes the drafts whose `expiresAt` is at or before `now` and returns them (for their secrets). */
  sweepSourceDrafts(now: number): SourceDraftRecord[];

  /**
   * Takes the refresh lease on `lease.key`, atomically: stored and true when there is none, when
   * the one there expired (its `expiresAt` is at or before `now`: its holder died), or when the
   * same holder holds it (renewed); false, and nothing changes, while another holder holds it.
   * Of processes taking one key at once, one gets it.
   */
  takeRefreshLease(lease: RefreshLease, now: number): boolean;
  /** Ends the refresh lease on `key` when `holder` holds it; another holder's lease, or none, is left as is. */
  releaseRefreshLease(key: string, holder: string): void;

  /**
   * Stores a new skill with its files' bytes (exactly the manifest's files, else `invalid_input`),
   * in one transaction. A name already held is a `conflict`.
   */
  addSkill(skill: Skill, contents: readonly SkillFileData[]): void;
  /** Replaces the skill of that name and its files (a changed skill a person accepted); no error if none. */
  replaceSkill(skill: Skill, contents: readonly SkillFileData[]): void;
  getSkill(name: string): Skill | undefined;
  /** A skill's files with their bytes, by path; undefined when there is no such skill. */
  getSkillContents(name: string): SkillFileData[] | undefined;
  /** Every skill, by name. */
  listSkills(): Skill[];
  /** Forgets a skill and its files; false when there was none. */
  removeSkill(name: string): boolean;
  /** Stores a new profile. A name already held is a `conflict`. */
  addProfile(profile: Profile): void;
  /** Stores a profile whole, replacing the one of that name if any (an edit, or `default`'s first). */
  putProfile(profile: Profile): void;
  /** A stored profile; `default` has none until it is edited (engine/profiles/ fills it in). */
  getProfile(name: string): Profile | undefined;
  /** Every stored profile, by name. */
  listProfiles(): Profile[];
  /** Forgets a profile; false when there was none. */
  removeProfile(name: string): boolean;
  /** Keeps a tool result out of line for its run (which must exist); a second one with the same handle is a conflict. */
  putResultBlob(blob: ResultBlob): void;
  getResultBlobInfo(handle: string): ResultBlobInfo | undefined;
  /** A result blob's whole text, or undefined when there is no such blob (or its run was pruned). */
  readResultBlobText(handle: string): string | undefined;
  /** The UTF-8 bytes of every result blob a run keeps. */
  resultBlobBytes(runId: string): number;

  /**
   * Appends to a source's history (kept by namespace, after the source is removed too). A
   * duplicate id is a conflict.
   */
  addSourceEvent(event: SourceEvent): void;
  /** A source's history (or every source's), newest first, at most `limit` (200) events. */
  listSourceEvents(filter?: { namespace?: string; limit?: number }): SourceEvent[];

  /** Keeps a device's push subscription; the same endpoint again replaces it (contracts/notify.ts). */
  putPushDevice(device: PushDevice): void;
  /** Every subscribed device, oldest first. */
  listPushDevices(): PushDevice[];
  /** Forgets a device; false when there was none. */
  removePushDevice(id: string): boolean;
  getNotifySettings(): NotifySettings;
  putNotifySettings(settings: NotifySettings): void;
  /**
   * Claims a waiting call's one notification: undefined when claimed before, `capped` past
   * `perMinute` claims in the minute before `at` (never sent later either), else `sent`.
   */
  claimNotification(
    call: { pendingId: string; runId: string; at: number },
    perMinute: number,
  ): NotificationOutcome | undefined;
  /** Forgets the notification claims made before `before`; how many. */
  pruneNotifications(before: number): number;
}
