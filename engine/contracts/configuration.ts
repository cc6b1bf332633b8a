/**
 * A hub's configuration as `hub push` carries it from a local hub to the hosted one, and the plan
 * the hosted hub answers with (spec: The CLI, "Hosted"; J5).
 *
 * The configuration is every source with what a person decided about it: its manifest as it was
 * reviewed, the reviews (the contracts a person approved), its connections (names and where each
 * secret goes, never a value) and its policy rules; every stored profile; every skill's record (its
 * manifest of files with their SHA-256). Secret values travel beside it, only with `push --secrets`
 * and the person's consent to each one, keyed by their secret-store key; a skill's bytes travel
 * only when applying adds or changes it, and must match the record the plan was made from.
 *
 * The plan says, source by source and tool by tool, what applying would add, change and remove,
 * and which sources it skips and why (a stdio source cannot run hosted). Its hash covers the plan,
 * the hosted configuration it was made against, and (keyed, never readable) the secret values:
 * applying needs the hash, so a plan that changed after the person saw it is refused.
 *
 * The hub's records, as zod 4 schemas. Every other module takes its types from these files
 * (`z.infer`), so a record has exactly one definition.
 */
import { z } from 'zod';
import { Connection } from './connections.ts';
import { ConnectionName, Namespace, Timestamp, ToolAddress } from './names.ts';
import { PolicyRule } from './policy.ts';
import { Profile, ProfileMode, ProfileName } from './profiles.ts';
import { Skill, SkillName } from './skills.ts';
import { Manifest, Source, SourceKind, ToolReview } from './sources.ts';

/**
 * The configuration format this code speaks. A hub that receives another refuses it with both
 * numbers, so an old CLI and a new hosted hub (or the reverse) say which one to update.
 */
export const CONFIGURATION_FORMAT = 2;

/**
 * The hosted hub's management API: its paths, under the hub's MCP resource (`<url>/mcp`), where the
 * OAuth token a person's CLI holds is good.
 */
export const HOSTED_PATHS = {
  plan: '/mcp/hub/plan',
  apply: '/mcp/hub/apply',
  status: '/mcp/hub/status',
} as const;

/** The OAuth scope that lets a client change the hub's configuration (the CLI asks for it; agents do not). */
export const CONFIGURE_SCOPE = 'hub:configure';

/** How a hub's refusal of a plan that changed since it was shown begins (a client words it for its person). */
export const PLAN_CHANGED = "this hub's configuration changed since the plan was made";

/** One source as pushed: the source record and everything a person decided about it. */
export const ConfiguredSource = z.object({
  source: Source,
  /** The tools as last listed and reviewed; absent when the hub could not list them yet. */
  manifest: Manifest.optional(),
  reviews: z.array(ToolReview),
  connections: z.array(Connection),
  policies: z.array(PolicyRule),
});
export type ConfiguredSource = z.infer<typeof ConfiguredSource>;

export const HubConfiguration = z.object({
  format: z.number().int().positive(),
  sources: z.array(ConfiguredSource),
  /** Every stored profile (`default` only once edited: an implicit one is no record). */
  profiles: z.array(Profile),
  /** Every skill's record, without its bytes (those travel with an apply that adds or changes it). */
  skills: z.array(Skill),
});
export type HubConfiguration = z.infer<typeof HubConfiguration>;

/** The largest number of secret values one push may carry, and the longest value. */
export const MAX_PUSHED_SECRETS = 500;
export const MAX_SECRET_VALUE_LENGTH = 16_384;

/** What `hub push` sends: the configuration and, with `--secrets`, the values the person allowed. */
export const PushRequest = z.object({
  configuration: HubConfiguration,
  /** Secret values by secret-store key; each must be a key one of the pushed connections names. */
  secrets: z
    .record(z.string().min(1).max(200), z.string().min(1).max(MAX_SECRET_VALUE_LENGTH))
    .refine((secrets) => Object.keys(secrets).length <= MAX_PUSHED_SECRETS, {
      message: `one push carries at most ${MAX_PUSHED_SECRETS} secret values`,
    })
    .default({}),
});
export type PushRequest = z.input<typeof PushRequest>;

/** One file of a skill as an apply carries it: its path in the skill's folder and its bytes in base64. */
export const PushedSkillFile = z.object({
  path: z.string().min(1).max(1024),
  base64: z.string().max(2 * 1024 * 1024),
});
export type PushedSkillFile = z.infer<typeof PushedSkillFile>;

/**
 * Applying a plan: the same request, the hash of the plan the person saw, and the files of each
 * skill the plan adds or changes (checked against the pushed record, which the hash covers).
 */
export const ApplyRequest = PushRequest.extend({
  planHash: z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash is 64 hex digits'),
  skillFiles: z.record(SkillName, z.array(PushedSkillFile)).default({}),
});
export type ApplyRequest = z.input<typeof ApplyRequest>;

/** What applying does to one thing. `keep` is listed for sources only, so the plan names every one. */
export const PlanChange = z.enum(['add', 'change', 'remove', 'keep', 'skip']);
export type PlanChange = z.infer<typeof PlanChange>;

/** One tool that a plan adds, changes (its contract differs) or removes. */
export const PlannedTool = z.object({
  address: ToolAddress,
  change: z.enum(['add', 'change', 'remove']),
  /** Whether the tool says it only reads (a write asks a person unless a rule says otherwise). */
  readOnly: z.boolean(),
  /** For `change`: what differs, in words ("description, input schema"). */
  differs: z.string().optional(),
});
export type PlannedTool = z.infer<typeof PlannedTool>;

/** One secret of a connection: where it goes, and what happens to the hosted value. */
export const PlannedSecret = z.object({
  key: z.string(),
  /** Where the value reaches the source, in words: `header Authorization (Bearer)`, `env GITHUB_TOKEN`. */
  delivery: z.string(),
  /**
   * `set`: a value is sent and the hosted hub has none; `replace`: a different value replaces the
   * hosted one; `keep`: the hosted value stays (none sent, or the same one); `missing`: neither side
   * has one to use, so calls will wait for it (enter it on the source's page or push with --secrets);
   * `forget`: the hosted value is deleted, not sent to where the source now is (its URL or hosts
   * changed, or the connection is new), so calls wait for it as for `missing`; `remove`: the
   * connection goes, with its value; `sign-in`: an OAuth sign-in, which a push never carries (its
   * tokens belong to the client that signed in): a person signs in again on the hosted hub (the
   * source's page), and until then calls wait for it; a grant the hosted hub held for it is deleted.
   */
  value: z.enum(['set', 'replace', 'keep', 'missing', 'forget', 'remove', 'sign-in']),
});
export type PlannedSecret = z.infer<typeof PlannedSecret>;

export const PlannedConnection = z.object({
  name: ConnectionName,
  change: z.enum(['add', 'change', 'remove', 'keep']),
  isDefault: z.boolean(),
  secrets: z.array(PlannedSecret),
});
export type PlannedConnection = z.infer<typeof PlannedConnection>;

/** A policy rule a plan adds or removes, in words (`ask on github.create_issue, pinned`). */
export const PlannedRule = z.object({
  change: z.enum(['add', 'remove']),
  rule: z.string(),
});
export type PlannedRule = z.infer<typeof PlannedRule>;

/** A tool approval (a review: the tool at one contract) a plan adds or removes. */
export const PlannedReview = z.object({
  address: ToolAddress,
  change: z.enum(['add', 'remove']),
});
export type PlannedReview = z.infer<typeof PlannedReview>;

/** One source of a plan. */
export const PlannedSource = z.object({
  namespace: Namespace,
  kind: SourceKind,
  change: PlanChange,
  /** Its URL, or its command line for a stdio source. */
  where: z.string(),
  /** An HTTP source's allowed hosts, when they are more than its URL's own host. */
  reaches: z.array(z.string()).optional(),
  /** For `skip`, and for `change`: why, in words, with what a person can do. */
  reason: z.string().optional(),
  tools: z.array(PlannedTool),
  /** Tools present on both sides with the same contract. */
  toolsKept: z.number().int().nonnegative(),
  connections: z.array(PlannedConnection),
  /** Approvals added and removed: a tool approved at its contract runs as its rules say, without asking again. */
  reviews: z.array(PlannedReview),
  rules: z.array(PlannedRule),
});
export type PlannedSource = z.infer<typeof PlannedSource>;

/** A profile a plan adds, changes, removes or keeps. */
export const PlannedProfile = z.object({
  name: ProfileName,
  change: z.enum(['add', 'change', 'remove', 'keep']),
  mode: ProfileMode,
  /** What it shows, in words (`namespaces github, linear; every skill`). */
  shows: z.string(),
  /** For `change`: what differs, in words (`mode, namespaces`). */
  differs: z.string().optional(),
});
export type PlannedProfile = z.infer<typeof PlannedProfile>;

/** A skill a plan adds, changes, removes or keeps. */
export const PlannedSkill = z.object({
  name: SkillName,
  change: z.enum(['add', 'change', 'remove', 'keep']),
  description: z.string(),
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** For `change`: what differs, in words (`files SKILL.md, scripts/run.py; description`). */
  differs: z.string().optional(),
});
export type PlannedSkill = z.infer<typeof PlannedSkill>;

export const Plan = z.object({
  format: z.number().int().positive(),
  sources: z.array(PlannedSource),
  profiles: z.array(PlannedProfile),
  skills: z.array(PlannedSkill),
  /** True when applying would change nothing. */
  empty: z.boolean(),
});
export type Plan = z.infer<typeof Plan>;

/** The hosted hub's answer to a plan request, and to an apply (with `appliedAt`). */
export const PlanAnswer = z.object({
  plan: Plan,
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  appliedAt: Timestamp.optional(),
});
export type PlanAnswer = z.infer<typeof PlanAnswer>;

/** One hosted source as `hub status` shows it. */
export const HostedSourceStatus = z.object({
  namespace: Namespace,
  kind: SourceKind,
  where: z.string(),
  tools: z.number().int().nonnegative(),
  /** `ready`, or what stops it in words (no tool list yet; a credential not entered). */
  health: z.string(),
});

/** What `GET /mcp/hub/status` answers: the hosted hub as its signed-in person may see it. */
export const HostedStatus = z.object({
  format: z.number().int().positive(),
  hubId: z.string(),
  schemaVersion: z.number().int().nonnegative(),
  /** The GitHub login the token was granted to, when a person signed in. */
  login: z.string().optional(),
  sources: z.array(HostedSourceStatus),
  /** Runs waiting for a person, newest first. */
  waiting: z.array(
    z.object({ runId: z.string(), address: z.string(), summary: z.string(), since: Timestamp }),
  ),
  lastPlan: z.object({ hash: z.string(), appliedAt: Timestamp }).optional(),
});
export type HostedStatus = z.infer<typeof HostedStatus>;
