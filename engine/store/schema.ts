/**
 * The hub's tables (drizzle sqlite-core). drizzle-kit turns this file into the SQL in
 * migrations/ (`npm run db:generate`); the Durable Object and the local file apply the same
 * SQL. JSON columns hold nested parts of a record; every column a query filters on is its own.
 *
 * The journal is append-only: hub_journal holds a call as it starts, hub_journal_outcomes its
 * outcome once it settles; triggers in the migration refuse any update, and any delete while
 * the run still exists.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();

export const hubMeta = sqliteTable('hub_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const hubSources = sqliteTable('hub_sources', {
  namespace: text('namespace').primaryKey(),
  kind: text('kind', { enum: ['mcp-stdio', 'mcp-http', 'openapi'] }).notNull(),
  command: json<string[]>('command'),
  env: json<Record<string, string>>('env'),
  consent: json<{ command: string[]; at: number }>('consent'),
  /** A stdio server's working directory: where `hub add` ran (null before 0003: the server's own). */
  cwd: text('cwd'),
  url: text('url'),
  allowedHosts: json<string[]>('allowed_hosts'),
  /** An OpenAPI source's document: its URL or absolute file path (null for MCP servers; added in 0006). */
  document: text('document'),
  addedAt: integer('added_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const hubManifests = sqliteTable('hub_manifests', {
  namespace: text('namespace').primaryKey(),
  fetchedAt: integer('fetched_at').notNull(),
  server: json<{ name: string; version: string }>('server'),
  instructions: text('instructions'),
});

export const hubTools = sqliteTable(
  'hub_tools',
  {
    address: text('address').primaryKey(),
    namespace: text('namespace').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    title: text('title'),
    description: text('description'),
    inputSchema: json<Record<string, unknown>>('input_schema').notNull(),
    outputSchema: json<Record<string, unknown>>('output_schema'),
    annotations: json<Record<string, unknown>>('annotations'),
    /** An OpenAPI tool's call binding (null for MCP tools; added in 0006). */
    operation: json<Record<string, unknown>>('operation'),
    contract: text('contract').notNull(),
  },
  (t) => [index('hub_tools_namespace').on(t.namespace, t.position)],
);

export const hubConnections = sqliteTable(
  'hub_connections',
  {
    namespace: text('namespace').notNull(),
    name: text('name').notNull(),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull(),
    secrets: json<unknown[]>('secrets').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.name] })],
);

export const hubPolicyRules = sqliteTable(
  'hub_policy_rules',
  {
    id: text('id').primaryKey(),
    targetKind: text('target_kind', { enum: ['source', 'tool'] }).notNull(),
    /** The namespace for a source rule, the address for a tool rule. */
    target: text('target').notNull(),
    connection: text('connection'),
    effect: text('effect', { enum: ['allow', 'ask', 'deny'] }).notNull(),
    contract: text('contract'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('hub_policy_rules_target').on(t.target)],
);

export const hubRuns = sqliteTable(
  'hub_runs',
  {
    id: text('id').primaryKey(),
    profile: text('profile').notNull(),
    status: text('status', {
      enum: ['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'expired'],
    }).notNull(),
    code: text('code').notNull(),
    seed: text('seed').notNull(),
    clockOrigin: integer('clock_origin').notNull(),
    attempts: integer('attempts').notNull(),
    result: json<unknown>('result'),
    error: json<{ code: string; message: string; hint?: string }>('error'),
    logs: json<string[]>('logs').notNull(),
    notices: json<string[]>('notices').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('hub_runs_status').on(t.status, t.updatedAt)],
);

export const hubJournal = sqliteTable(
  'hub_journal',
  {
    runId: text('run_id').notNull(),
    seq: integer('seq').notNull(),
    address: text('address').notNull(),
    connection: text('connection'),
    argsDigest: text('args_digest').notNull(),
    decision: json<unknown>('decision').notNull(),
    startedAt: integer('started_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

export const hubJournalOutcomes = sqliteTable(
  'hub_journal_outcomes',
  {
    runId: text('run_id').notNull(),
    seq: integer('seq').notNull(),
    outcome: json<unknown>('outcome').notNull(),
    settledAt: integer('settled_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

export const hubPendingInputs = sqliteTable(
  'hub_pending_inputs',
  {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    seq: integer('seq').notNull(),
    kind: text('kind', { enum: ['approval', 'connection'] }).notNull(),
    address: text('address').notNull(),
    connection: text('connection'),
    summary: text('summary').notNull(),
    argsPreview: text('args_preview').notNull(),
    /** The digest of the exact arguments the person is shown; null only on inputs from before 0003. */
    argsDigest: text('args_digest'),
    /** The tool's contract when it asked; null only on inputs from before 0003. */
    contract: text('contract'),
    /** The whole arguments, scrubbed, for a person who wants to see past the preview. */
    args: json<Record<string, unknown>>('args'),
    reason: text('reason').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  // Not unique: a call that differs from the one a person decided asks again at the same seq.
  (t) => [index('hub_pending_inputs_call').on(t.runId, t.seq)],
);

export const hubDecisions = sqliteTable(
  'hub_decisions',
  {
    id: text('id').primaryKey(),
    /** Unique: a pending call is decided once. */
    pendingId: text('pending_id').notNull().unique(),
    runId: text('run_id').notNull(),
    choice: text('choice', { enum: ['once', 'run', 'always', 'deny'] }).notNull(),
    channel: text('channel', { enum: ['client prompt', 'approval page', 'cli', 'dashboard'] }).notNull(),
    who: text('who').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('hub_decisions_run').on(t.runId)],
);

/**
 * What search keeps of a namespace's tools (engine/search/stored-documents.ts): each tool's
 * document and terms, derived from the manifest fetched at `fetched_at` by the search code of
 * `format`, so a new process builds its index without reading a tool list. A cache: a row whose
 * time or format differs from the manifest and the code is ignored and made again.
 */
export const hubSearchDocuments = sqliteTable('hub_search_documents', {
  namespace: text('namespace').primaryKey(),
  fetchedAt: integer('fetched_at').notNull(),
  format: text('format').notNull(),
  documents: json<unknown[]>('documents').notNull(),
});

/**
 * What a person approved, per tool: the contract digest and the tool as it was then, so a
 * later change can be named ("changed upstream since you approved it: description").
 */
export const hubReviews = sqliteTable(
  'hub_reviews',
  {
    address: text('address').primaryKey(),
    namespace: text('namespace').notNull(),
    contract: text('contract').notNull(),
    tool: json<Record<string, unknown>>('tool').notNull(),
    reviewedAt: integer('reviewed_at').notNull(),
  },
  (t) => [index('hub_reviews_namespace').on(t.namespace)],
);

/**
 * One-time page links (spec: Security and approvals): keyed by the SHA-256 of the token, never
 * the token. `used_at` is set once, by the exchange that opened a session.
 */
export const hubPageLinks = sqliteTable(
  'hub_page_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    target: json<Record<string, unknown>>('target').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [index('hub_page_links_expires').on(t.expiresAt)],
);

/** Page sessions a link was exchanged for: keyed by the SHA-256 of the session token. */
export const hubPageSessions = sqliteTable(
  'hub_page_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    who: text('who').notNull(),
    target: json<Record<string, unknown>>('target').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('hub_page_sessions_expires').on(t.expiresAt)],
);

/**
 * Sources a person is adding from the dashboard, shown for review and waiting for Confirm
 * (contracts/source-drafts.ts): what was shown, whole (with, for an OpenAPI document, the
 * credentials it asks for: `asks`, added in 0008), and a pointer to the credential entered (its
 * value is in the secret store, never here). Minutes long; swept at `expires_at`.
 */
export const hubSourceDrafts = sqliteTable(
  'hub_source_drafts',
  {
    id: text('id').primaryKey(),
    source: json<Record<string, unknown>>('source').notNull(),
    manifest: json<Record<string, unknown>>('manifest').notNull(),
    notices: json<string[]>('notices').notNull(),
    credential: json<Record<string, unknown>>('credential'),
    asks: json<Record<string, unknown>[]>('asks').notNull().default([]),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('hub_source_drafts_expires').on(t.expiresAt)],
);

/**
 * Who is refreshing an OAuth connection's token (engine/sources/oauth-refresh.ts), across the
 * processes serving one hub: one row per secret key while a refresh is under way. A lease past
 * `expires_at` was left by a process that died and may be taken over.
 */
export const hubRefreshLeases = sqliteTable('hub_refresh_leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
});

/**
 * The skills the hub holds (engine/skills/): a folder with a SKILL.md, kept as its instructions'
 * text and a manifest of its files (path, size, SHA-256). Files are data the hub serves, never
 * code it runs. `digest` covers the whole folder, so a changed skill is noticed and reviewed.
 */
export const hubSkills = sqliteTable('hub_skills', {
  name: text('name').primaryKey(),
  description: text('description').notNull(),
  /** The whole SKILL.md, front matter included: what `describe("skill:<name>")` answers. */
  text: text('text').notNull(),
  files: json<{ path: string; bytes: number; sha256: string }[]>('files').notNull(),
  /** Where it was added from: an absolute folder path. */
  source: text('source').notNull(),
  digest: text('digest').notNull(),
  addedAt: integer('added_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Each skill file's bytes (hub_skills holds the manifest), as base64 text: a file is at most a
 * skill's 1 MiB, so its base64 stays under the 2 MB a Durable Object's SQLite value may take. Kept
 * so `hub connect` can install the skill into harnesses and a push can carry it; data the hub
 * serves, never code it runs. Written and removed with its skill, in one transaction. Added in
 * 0012 (`skill_files`).
 */
export const hubSkillFiles = sqliteTable(
  'hub_skill_files',
  {
    skill: text('skill').notNull(),
    /** Relative to the skill's folder, as in the manifest. */
    path: text('path').notNull(),
    data: text('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.skill, t.path] })],
);

/**
 * Tool results too large to go inline (engine/runs/result-handles.ts), kept for their run and
 * deleted with it: one row per result (its handle), its scrubbed text in chunks of at most
 * 512K characters (1.5 MB of UTF-8 at most, under the 2 MB a Durable Object's SQLite value may
 * take), in order of `position`. Added in 0010.
 */
export const hubResultBlobs = sqliteTable(
  'hub_result_blobs',
  {
    handle: text('handle').primaryKey(),
    runId: text('run_id').notNull(),
    /** The text's size in UTF-8 bytes. */
    bytes: integer('bytes').notNull(),
    mediaType: text('media_type').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('hub_result_blobs_run').on(t.runId)],
);

export const hubResultBlobChunks = sqliteTable(
  'hub_result_blob_chunks',
  {
    handle: text('handle').notNull(),
    position: integer('position').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.handle, t.position] })],
);

/**
 * The hub's profiles (contracts/profiles.ts): curated views, one row each. A list column that is
 * NULL means "all" (every namespace, every tool of them, every skill). `default` has a row only
 * once it was edited. Added in 0011.
 */
export const hubProfiles = sqliteTable('hub_profiles', {
  name: text('name').primaryKey(),
  mode: text('mode', { enum: ['code', 'direct'] }).notNull(),
  namespaces: json<string[]>('namespaces'),
  tools: json<string[]>('tools'),
  skills: json<string[]>('skills'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Each source's history (contracts/source-history.ts): what a person changed on it (a tool's
 * rule, a review, the removal), who and when. Kept by namespace, with no tie to hub_sources, so
 * the removal of a source stays on record. Added in 0014.
 */
export const hubSourceHistory = sqliteTable(
  'hub_source_history',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    who: text('who').notNull(),
    change: json<Record<string, unknown>>('change').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('hub_source_history_namespace').on(t.namespace, t.at)],
);

/**
 * The devices a person subscribed to Web Push from the hosted dashboard (contracts/notify.ts),
 * one per browser endpoint. Added in 0015.
 */
export const hubPushDevices = sqliteTable('hub_push_devices', {
  id: text('id').primaryKey(),
  endpoint: text('endpoint').notNull().unique(),
  p256dh: text('p256dh').notNull(),
  auth: text('auth').notNull(),
  label: text('label').notNull(),
  createdAt: integer('created_at').notNull(),
});

/**
 * One row per waiting call the hub notified about (or would have, past the per-minute cap):
 * the claim that makes it one notification per call. Added in 0015.
 */
export const hubNotifications = sqliteTable(
  'hub_notifications',
  {
    pendingId: text('pending_id').primaryKey(),
    runId: text('run_id').notNull(),
    outcome: text('outcome', { enum: ['sent', 'capped'] }).notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('hub_notifications_at').on(t.at)],
);
