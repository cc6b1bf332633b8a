/**
 * The hub's records, as zod 4 schemas. Every other module takes its types from here
 * (`z.infer`), so a record has exactly one definition. Records hold references to
 * secrets, never their values (spec: Security, "Secrets stay out of reach").
 *
 * Timestamps are epoch milliseconds from the Clock port; ids are opaque strings.
 */
import { z } from 'zod';

// ── Names ──────────────────────────────────────────────────────────────────────────────

/** Words a namespace may not take: JavaScript reserved words and the prelude's own globals. */
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([
  // ECMAScript reserved words (strict mode) and literals
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import',
  'in', 'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public',
  'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while',
  'with', 'yield', 'arguments', 'eval', 'undefined',
  // globals the guest prelude defines or relies on
  'hub', 'console', 'globalThis', 'crypto', 'Math', 'Date', 'JSON', 'Promise', 'Object', 'Array', 'ToolError',
  'atob', 'btoa', 'performance', 'escape', 'unescape',
]); // biome-ignore format: a word list reads better packed

/** A source's namespace: lowercase, a JavaScript identifier, unique per hub (spec: Concepts, Namespace). */
export const Namespace = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'a namespace is lowercase letters, digits and _, starting with a letter')
  .refine((name) => !RESERVED_NAMESPACES.has(name), 'that word is reserved in the sandbox; pick another');
export type Namespace = z.infer<typeof Namespace>;

/** A tool address `namespace.tool`; the tool part is a JavaScript identifier (see address.ts). */
export const ToolAddress = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}\.[A-Za-z_$][A-Za-z0-9_$]*$/, 'a tool address is namespace.tool');
export type ToolAddress = z.infer<typeof ToolAddress>;

/** A connection's name within its source (`work` in `github/work`). */
export const ConnectionName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a connection name is lowercase letters, digits, - and _');

/** Lowercase hex SHA-256 of a tool's canonical contract (see contract-digest.ts). */
export const ContractDigest = z.string().regex(/^[0-9a-f]{64}$/, 'a contract digest is 64 hex digits');

export const Timestamp = z.number().int().nonnegative();
export const Id = z.string().min(1).max(100);

/** Any JSON value; schemas and arguments travel as JSON. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValue),
    z.record(z.string(), JsonValue),
  ]),
);
export const JsonObject = z.record(z.string(), JsonValue);

// ── Sources and manifests ─────────────────────────────────────────────────────────────

export const SourceKind = z.enum(['mcp-stdio', 'mcp-http']);
export type SourceKind = z.infer<typeof SourceKind>;

const SourceBase = z.object({
  namespace: Namespace,
  addedAt: Timestamp,
  updatedAt: Timestamp,
});

/** A local MCP server launched over stdio. It runs only with consent to its exact command line. */
export const StdioSource = SourceBase.extend({
  kind: z.literal('mcp-stdio'),
  /** argv[0] and the rest, exactly as it will be spawned. */
  command: z.array(z.string().min(1)).min(1),
  /** Non-secret environment; secrets reach the server through a connection. */
  env: z.record(z.string(), z.string()).default({}),
  /** The command line a person consented to, with when; null until they do. */
  consent: z.object({ command: z.array(z.string()), at: Timestamp }).nullable(),
  /**
   * The directory the command runs in: where `hub add` ran, so its relative paths mean what they
   * meant there whichever process starts it later (absent: the starting process's own).
   */
  cwd: z.string().min(1).optional(),
});

/** A remote MCP server over Streamable HTTP (SSE as a fallback). */
export const HttpSource = SourceBase.extend({
  kind: z.literal('mcp-http'),
  url: z.url({ protocol: /^https?$/ }),
  /** Hosts fixed at review; upstream traffic goes nowhere else (invariant I4). */
  allowedHosts: z.array(z.string().min(1)).min(1),
});

export const Source = z.discriminatedUnion('kind', [StdioSource, HttpSource]);
export type Source = z.infer<typeof Source>;

/** True when a stdio source's consent covers exactly the command it would run. */
export function hasConsent(source: z.infer<typeof StdioSource>): boolean {
  const consent = source.consent;
  return (
    consent !== null &&
    consent.command.length === source.command.length &&
    consent.command.every((part, i) => part === source.command[i])
  );
}

/** MCP tool annotations (hints), as the source sent them. */
export const ToolAnnotations = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** One tool of a manifest: what the source sent, plus its address and contract digest. */
export const ManifestTool = z.object({
  address: ToolAddress,
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonObject,
  outputSchema: JsonObject.optional(),
  annotations: ToolAnnotations.optional(),
  contract: ContractDigest,
});
export type ManifestTool = z.infer<typeof ManifestTool>;

/** A source's tools as last read (`tools/list`, every page). */
export const Manifest = z.object({
  namespace: Namespace,
  fetchedAt: Timestamp,
  server: z.object({ name: z.string(), version: z.string() }).optional(),
  instructions: z.string().optional(),
  tools: z.array(ManifestTool),
});
export type Manifest = z.infer<typeof Manifest>;

/** What a person approved for one tool: its contract then, and the tool as it was. */
export const ToolReview = z.object({
  address: ToolAddress,
  namespace: Namespace,
  contract: ContractDigest,
  tool: ManifestTool,
  reviewedAt: Timestamp,
});
export type ToolReview = z.infer<typeof ToolReview>;

// ── Connections ───────────────────────────────────────────────────────────────────────

/** How a secret reaches the source: an environment variable (stdio) or an HTTP header. */
export const SecretDelivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('env'), variable: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) }),
  z.object({
    kind: z.literal('header'),
    name: z.string().regex(/^[A-Za-z0-9-]+$/),
    /** Prefix before the value, e.g. `Bearer`; empty for a bare value. */
    scheme: z.string().default('Bearer'),
  }),
]);

/** A pointer into the secret store. Never the value. */
export const SecretRef = z.object({
  /** The secret store's key (keychain account) for the value. */
  key: z.string().min(1).max(200),
  delivery: SecretDelivery,
  /**
   * When the value was last entered: a new value under the same key changes this, so every
   * process serving the hub knows to read it again for scrubbing (hub-secrets.ts).
   */
  setAt: Timestamp.optional(),
});
export type SecretRef = z.infer<typeof SecretRef>;

/** One named credential for one source (`github/work`). */
export const Connection = z.object({
  namespace: Namespace,
  name: ConnectionName,
  isDefault: z.boolean(),
  secrets: z.array(SecretRef),
  createdAt: Timestamp,
});
export type Connection = z.infer<typeof Connection>;

// ── Policy ────────────────────────────────────────────────────────────────────────────

export const PolicyEffect = z.enum(['allow', 'ask', 'deny']);
export type PolicyEffect = z.infer<typeof PolicyEffect>;

export const PolicyTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('source'), namespace: Namespace }),
  z.object({ kind: z.literal('tool'), address: ToolAddress }),
]);

/** A rule on a source or a tool, optionally narrowed to one connection and pinned to one contract. */
export const PolicyRule = z.object({
  id: Id,
  target: PolicyTarget,
  /**
   * The connection the rule is narrowed to; `null` narrows it to calls on no connection (a
   * source with none, as a person decided `always` for it); absent, it covers every connection.
   */
  connection: ConnectionName.nullable().optional(),
  effect: PolicyEffect,
  /** Pinned contract: the rule stops applying once the tool's digest differs. */
  contract: ContractDigest.optional(),
  createdAt: Timestamp,
});
export type PolicyRule = z.infer<typeof PolicyRule>;

// ── Runs and journals ─────────────────────────────────────────────────────────────────

export const RunStatus = z.enum(['running', 'awaiting_input', 'completed', 'failed', 'cancelled', 'expired']);
export type RunStatus = z.infer<typeof RunStatus>;

/** An error as the model and the guest see it. */
export const ErrorInfo = z.object({
  code: z.string().min(1),
  message: z.string(),
  hint: z.string().optional(),
});

/** One `execute` request's lifecycle (spec: Concepts, Run). */
export const Run = z.object({
  id: Id,
  profile: z.string().min(1),
  status: RunStatus,
  code: z.string(),
  /** Seeds Math.random and crypto in the guest; the same on every attempt. */
  seed: z.string().min(1),
  /** Epoch ms the guest's Date starts from on every attempt. */
  clockOrigin: Timestamp,
  attempts: z.number().int().nonnegative(),
  result: JsonValue.optional(),
  error: ErrorInfo.optional(),
  logs: z.array(z.string()),
  notices: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Run = z.infer<typeof Run>;

/** How one settled call ended; stored scrubbed. */
export const CallOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: JsonValue, ms: z.number().nonnegative() }),
  z.object({
    ok: z.literal(false),
    error: ErrorInfo.extend({ status: z.number().int().optional(), retryable: z.boolean() }),
    ms: z.number().nonnegative(),
  }),
]);
export type CallOutcome = z.infer<typeof CallOutcome>;

/** What let a call through (or stopped it): policy alone, or a person's decision. */
export const CallDecision = z.object({
  effect: PolicyEffect,
  by: z.enum(['policy', 'person']),
  decisionId: Id.optional(),
  reason: z.string(),
});

/**
 * One tool call in a run's journal. The entry is appended when the call starts; its
 * outcome is appended once when it settles. An entry without an outcome is in doubt.
 */
export const JournalEntry = z.object({
  runId: Id,
  seq: z.number().int().nonnegative(),
  address: ToolAddress,
  connection: ConnectionName.nullable(),
  /** Hex SHA-256 of the canonical JSON of the arguments. */
  argsDigest: z.string().regex(/^[0-9a-f]{64}$/),
  decision: CallDecision,
  startedAt: Timestamp,
  outcome: CallOutcome.optional(),
  settledAt: Timestamp.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const PendingKind = z.enum(['approval', 'connection']);

/** A call waiting for a person: what they are shown, redacted (spec: Security, Only a person approves). */
export const PendingInput = z.object({
  id: Id,
  runId: Id,
  seq: z.number().int().nonnegative(),
  kind: PendingKind,
  address: ToolAddress,
  connection: ConnectionName.nullable(),
  /** The first sentence of the tool's description. */
  summary: z.string(),
  /** Arguments, scrubbed and capped at 4 KB. */
  argsPreview: z.string().max(4096),
  /**
   * The digest of the exact arguments the person is shown (as JournalEntry.argsDigest). A
   * decision covers only a call with this address, connection and digest; null only on inputs
   * recorded before the hub bound decisions to arguments, which therefore cover no call.
   */
  argsDigest: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  /**
   * The tool's contract digest when the call asked: a decision covers the tool only as the
   * person was shown it (null only on inputs recorded before decisions were bound to it).
   */
  contract: ContractDigest.nullable(),
  /**
   * The whole arguments, scrubbed: the preview shortens long values, and a person may want to
   * read all of what they decide (`hub approve --full`). Never shown to the model. Absent on
   * inputs recorded before they were kept.
   */
  args: JsonObject.nullable().optional(),
  /** Why it asks; for a call that differs from one a person decided, also what changed. */
  reason: z.string(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type PendingInput = z.infer<typeof PendingInput>;

export const DecisionChoice = z.enum(['once', 'run', 'always', 'deny']);
export type DecisionChoice = z.infer<typeof DecisionChoice>;
export const DecisionChannel = z.enum(['client prompt', 'approval page', 'cli', 'dashboard']);
export type DecisionChannel = z.infer<typeof DecisionChannel>;

/** A person's answer to one pending call. Recorded once, only by the person-input module. */
export const Decision = z.object({
  id: Id,
  pendingId: Id,
  runId: Id,
  choice: DecisionChoice,
  channel: DecisionChannel,
  /** Who decided, as the channel knows them (an OS user, a signed-in account). */
  who: z.string().min(1),
  at: Timestamp,
});
export type Decision = z.infer<typeof Decision>;

// ── Approvals in the client's own prompt (spec: Approvals over MCP) ──────────────────

/** A client-prompt form's one field: the four choices as a flat enum (MCP form elicitation). */
export const PromptSchema = z.object({
  type: z.literal('object'),
  properties: z.object({
    decision: z.object({
      type: z.literal('string'),
      title: z.string(),
      description: z.string(),
      enum: z.array(DecisionChoice),
    }),
  }),
  required: z.array(z.literal('decision')),
});
export type PromptSchema = z.infer<typeof PromptSchema>;

/** One form a person answers in their client: one pending call, keyed by its id. */
export const PromptForm = z.object({
  pendingId: Id,
  /** The call's address, connection, redacted arguments, reason and expiry, for the person. */
  message: z.string(),
  requestedSchema: PromptSchema,
});
export type PromptForm = z.infer<typeof PromptForm>;

/** What a client that declared form elicitation is asked: a form per pending call, one signed state. */
export const PromptRequest = z.object({
  requestState: z.string(),
  forms: z.array(PromptForm).min(1),
});
export type PromptRequest = z.infer<typeof PromptRequest>;

/** What came of a person's answers in their client's prompt. */
export const PromptOutcome = z.object({
  runId: Id,
  /** Pending calls whose decision was recorded (channel `client prompt`). */
  decided: z.array(Id),
  /** Pending calls declined, cancelled or left without a choice: still waiting for a person. */
  undecided: z.array(Id),
});
export type PromptOutcome = z.infer<typeof PromptOutcome>;

// ── The execute envelope (spec: The MCP surface, execute) ────────────────────────────

export const EnvelopeStatus = z.enum([
  /** Another attempt is running the run right now: ask again after `retryAfterMs`; nothing failed. */
  'running',
  'completed',
  'failed',
  'awaiting_approval',
  'awaiting_connection',
  'cancelled',
]);

export const ExecuteEnvelope = z.object({
  runId: z.string(),
  status: EnvelopeStatus,
  result: z.unknown().optional(),
  error: ErrorInfo.optional(),
  logs: z.array(z.string()).optional(),
  calls: z.array(z.object({ address: z.string(), ok: z.boolean(), ms: z.number() })),
  pending: z
    .array(
      z.object({
        id: z.string(),
        kind: PendingKind,
        address: z.string().optional(),
        summary: z.string(),
        message: z.string().optional(),
      }),
    )
    .optional(),
  truncated: z.object({ result: z.boolean().optional(), logs: z.boolean().optional() }).optional(),
  notices: z.array(z.string()).optional(),
  /** With status `running`: when to call `execute({ resume })` again, in milliseconds. */
  retryAfterMs: z.number().int().positive().optional(),
});
export type ExecuteEnvelope = z.infer<typeof ExecuteEnvelope>;

// ── The local hub's settings file (hub.json) ─────────────────────────────────────────

export const HubSettings = z.object({
  /** Loopback port of `hub serve --http`. */
  httpPort: z.number().int().min(1).max(65535).default(4790),
});

export const HubFile = z.object({
  hubId: Id,
  schemaVersion: z.number().int().nonnegative(),
  createdAt: Timestamp,
  settings: HubSettings.prefault({}),
});
export type HubFile = z.infer<typeof HubFile>;
