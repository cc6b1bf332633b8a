/**
 * The plan of a push: what applying an incoming configuration to a hub's own would add, change and
 * remove, source by source and tool by tool, and which sources it skips and why. Pure and
 * synchronous: what it needs to know of secret values (which the hub holds, which the push sends
 * and whether they differ) is found first and handed in, so the plan can be made again inside the
 * transaction that applies it and compared with the one the person saw.
 *
 * A push makes the hub's configuration the incoming one (its sources, profiles and skills;
 * profile-plan.ts and skill-plan.ts plan the last two): a source the push does not carry is
 * removed, except that a source the hub cannot run (a stdio server, for the hosted hub) is
 * skipped, and a source of the hub's own under that namespace stays. Timestamps are not
 * configuration: records that differ only in when they were made are the same.
 */
import { canonicalJson } from '../canonical-json.ts';
import {
  CONFIGURATION_FORMAT,
  type ConfiguredSource,
  type HubConfiguration,
  type Plan,
  type PlannedConnection,
  type PlannedReview,
  type PlannedRule,
  type PlannedSecret,
  type PlannedSource,
  type PlannedTool,
} from '../contracts/configuration.ts';
import { type Connection, describeDelivery, type SecretRef } from '../contracts/connections.ts';
import type { PolicyRule } from '../contracts/policy.ts';
import type { ManifestTool, Source, ToolReview } from '../contracts/sources.ts';
import { changedParts } from '../sources/manifest-diff.ts';
import { plannedProfiles } from './profile-plan.ts';
import { plannedSkills } from './skill-plan.ts';

/** What the plan knows of secret values: never a value, only what differs. */
export interface SecretFacts {
  /** Each key the push sends a value for: the hub has none (`new`), the same one, or another. */
  sent: ReadonlyMap<string, 'new' | 'same' | 'different'>;
  /** Every key the hub holds a value for. */
  held: ReadonlySet<string>;
}

/** Why this hub cannot run `source`, in words with what a person can do; undefined when it can. */
export type CannotRun = (source: Source) => string | undefined;

export function planOf(
  own: HubConfiguration,
  incoming: HubConfiguration,
  secrets: SecretFacts,
  cannotRun: CannotRun,
): Plan {
  const mine = new Map(own.sources.map((entry) => [entry.source.namespace, entry]));
  const pushed = new Set(incoming.sources.map((entry) => entry.source.namespace));
  const sources: PlannedSource[] = [];
  for (const entry of incoming.sources) {
    const namespace = entry.source.namespace;
    const current = mine.get(namespace);
    const reason = cannotRun(entry.source);
    if (reason !== undefined) {
      sources.push({
        ...plannedShell(entry.source, 'skip'),
        reason: current ? `${reason}; this hub's own "${namespace}" stays as it is` : reason,
      });
    } else {
      sources.push(current ? changed(current, entry, secrets) : added(entry, secrets));
    }
  }
  for (const entry of own.sources) {
    if (!pushed.has(entry.source.namespace)) sources.push(removed(entry));
  }
  sources.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
  const profiles = plannedProfiles(own, incoming);
  const skills = plannedSkills(own, incoming);
  return {
    format: CONFIGURATION_FORMAT,
    sources,
    profiles,
    skills,
    empty:
      sources.every((source) => source.change === 'keep' || source.change === 'skip') &&
      profiles.every((profile) => profile.change === 'keep') &&
      skills.every((skill) => skill.change === 'keep'),
  };
}

/** Where a source is, as a person recognises it: its URL, its command line, or its document. */
export function sourceWhere(source: Source): string {
  if (source.kind === 'openapi') return `${source.url} (OpenAPI document ${source.document})`;
  return source.kind === 'mcp-http' ? source.url : source.command.join(' ');
}

function plannedShell(source: Source, change: PlannedSource['change']): PlannedSource {
  const reaches = source.kind !== 'mcp-stdio' ? extraReach(source.url, source.allowedHosts) : undefined;
  return {
    namespace: source.namespace,
    kind: source.kind,
    change,
    where: sourceWhere(source),
    ...(reaches ? { reaches } : {}),
    tools: [],
    toolsKept: 0,
    connections: [],
    reviews: [],
    rules: [],
  };
}

/** The allowed hosts, when they are more than the URL's own host (what a person must see: more reach). */
function extraReach(url: string, allowedHosts: readonly string[]): string[] | undefined {
  const own = URL.parse(url)?.host;
  return allowedHosts.length === 1 && allowedHosts[0] === own ? undefined : [...allowedHosts];
}

function added(entry: ConfiguredSource, secrets: SecretFacts): PlannedSource {
  return {
    ...plannedShell(entry.source, 'add'),
    tools: (entry.manifest?.tools ?? []).map((tool) => plannedTool(tool, 'add')),
    connections: entry.connections.map((connection) =>
      plannedConnection(undefined, connection, secrets, true),
    ),
    reviews: reviewChanges([], entry.reviews),
    rules: entry.policies.map((rule) => ({ change: 'add' as const, rule: ruleWords(rule) })),
  };
}

function removed(entry: ConfiguredSource): PlannedSource {
  return {
    ...plannedShell(entry.source, 'remove'),
    tools: (entry.manifest?.tools ?? []).map((tool) => plannedTool(tool, 'remove')),
    connections: entry.connections.map((connection) => ({
      name: connection.name,
      change: 'remove' as const,
      isDefault: connection.isDefault,
      secrets: connection.secrets.map((ref) => plannedSecret(ref, 'remove')),
    })),
    rules: entry.policies.map((rule) => ({ change: 'remove' as const, rule: ruleWords(rule) })),
  };
}

function changed(current: ConfiguredSource, entry: ConfiguredSource, secrets: SecretFacts): PlannedSource {
  const reasons: string[] = [];
  const moved = canonicalJson(location(current.source)) !== canonicalJson(location(entry.source));
  if (moved) {
    reasons.push(`was ${describeLocation(current.source)}, becomes ${describeLocation(entry.source)}`);
  }
  const before = new Map((current.manifest?.tools ?? []).map((tool) => [tool.address, tool]));
  const after = new Map((entry.manifest?.tools ?? []).map((tool) => [tool.address, tool]));
  const tools: PlannedTool[] = [];
  let toolsKept = 0;
  for (const [address, tool] of after) {
    const old = before.get(address);
    if (!old) tools.push(plannedTool(tool, 'add'));
    else if (old.contract !== tool.contract) {
      tools.push({ ...plannedTool(tool, 'change'), differs: changedParts(old, tool).join(', ') });
    } else toolsKept += 1;
  }
  for (const [address, tool] of before) if (!after.has(address)) tools.push(plannedTool(tool, 'remove'));
  const reviews = reviewChanges(current.reviews, entry.reviews);

  const connections: PlannedConnection[] = [];
  const oldConnections = new Map(current.connections.map((c) => [c.name, c]));
  for (const connection of entry.connections) {
    // A held value never follows a source to a new place: it is sent again, or forgotten.
    connections.push(plannedConnection(oldConnections.get(connection.name), connection, secrets, moved));
  }
  const newNames = new Set(entry.connections.map((c) => c.name));
  for (const connection of current.connections) {
    if (!newNames.has(connection.name)) {
      connections.push({
        name: connection.name,
        change: 'remove',
        isDefault: connection.isDefault,
        secrets: connection.secrets.map((ref) => plannedSecret(ref, 'remove')),
      });
    }
  }

  const rules = ruleChanges(current.policies, entry.policies);
  const changes =
    reasons.length > 0 ||
    tools.length > 0 ||
    rules.length > 0 ||
    connections.some(
      (c) => c.change !== 'keep' || c.secrets.some((s) => s.value === 'set' || s.value === 'replace'),
    );
  return {
    ...plannedShell(entry.source, changes ? 'change' : 'keep'),
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    tools,
    toolsKept,
    connections: connections.filter((c) => changes || c.change !== 'keep'),
    reviews,
    rules,
  };
}

function plannedTool(tool: ManifestTool, change: PlannedTool['change']): PlannedTool {
  return { address: tool.address, change, readOnly: tool.annotations?.readOnlyHint === true };
}

/**
 * One connection's change and each secret's fate. A value the hub holds stays only for a
 * connection it already has, of a source that did not move (`fresh` is false): otherwise it is
 * forgotten unless sent again, so no credential reaches a place it was not entered for.
 */
function plannedConnection(
  current: Connection | undefined,
  connection: Connection,
  secrets: SecretFacts,
  fresh: boolean,
): PlannedConnection {
  const planned = connection.secrets.map((ref): PlannedSecret => {
    // A sign-in never travels: the hosted hub's own stays where nothing moved, else a person signs in there.
    if (ref.delivery.kind === 'oauth')
      return plannedSecret(ref, secrets.held.has(ref.key) && current && !fresh ? 'keep' : 'sign-in');
    const sent = secrets.sent.get(ref.key);
    if (sent === 'new') return plannedSecret(ref, 'set');
    if (sent === 'different') return plannedSecret(ref, 'replace');
    if (!secrets.held.has(ref.key)) return plannedSecret(ref, 'missing');
    // Sent and the same, or not sent: the held value, unless it would go somewhere new.
    if (sent === 'same') return plannedSecret(ref, fresh || !current ? 'set' : 'keep');
    return plannedSecret(ref, fresh || !current ? 'forget' : 'keep');
  });
  // Values the connection no longer points at go with it.
  const kept = new Set(connection.secrets.map((ref) => ref.key));
  for (const ref of current?.secrets ?? []) {
    if (!kept.has(ref.key)) planned.push(plannedSecret(ref, 'remove'));
  }
  let change: PlannedConnection['change'] = 'keep';
  if (!current) change = 'add';
  else if (canonicalJson(connectionShape(current)) !== canonicalJson(connectionShape(connection)))
    change = 'change';
  return { name: connection.name, change, isDefault: connection.isDefault, secrets: planned };
}

function plannedSecret(ref: SecretRef, value: PlannedSecret['value']): PlannedSecret {
  return { key: ref.key, delivery: describeDelivery(ref.delivery), value };
}

/** What a connection is, without when: its default flag and where each secret goes. */
function connectionShape(connection: Connection) {
  return {
    isDefault: connection.isDefault,
    secrets: connection.secrets.map((ref) => ({ key: ref.key, delivery: ref.delivery })),
  };
}

/** Where a source is and what it may reach: what a person reviewed when they added it. */
function location(source: Source) {
  switch (source.kind) {
    case 'mcp-http':
      return { kind: source.kind, url: source.url, allowedHosts: [...source.allowedHosts].sort() };
    case 'openapi':
      return {
        kind: source.kind,
        document: source.document,
        url: source.url,
        allowedHosts: [...source.allowedHosts].sort(),
      };
    case 'mcp-stdio':
      return { kind: source.kind, command: source.command, env: source.env, cwd: source.cwd ?? null };
  }
}

function describeLocation(source: Source): string {
  if (source.kind === 'mcp-stdio') return `the command ${source.command.join(' ')}`;
  if (source.kind === 'openapi') return `the API at ${source.url} described by ${source.document}`;
  const hosts = source.allowedHosts.join(', ');
  return hosts === new URL(source.url).host ? source.url : `${source.url} (reaching ${hosts})`;
}

/** Approvals added and removed, compared by tool and contract. */
function reviewChanges(before: readonly ToolReview[], after: readonly ToolReview[]): PlannedReview[] {
  const key = (review: ToolReview) => `${review.address} ${review.contract}`;
  const old = new Set(before.map(key));
  const now = new Set(after.map(key));
  return [
    ...after
      .filter((review) => !old.has(key(review)))
      .map((review) => ({ address: review.address, change: 'add' as const })),
    ...before
      .filter((review) => !now.has(key(review)))
      .map((review) => ({ address: review.address, change: 'remove' as const })),
  ];
}

/** A rule as configuration: what it says, without its id or when it was made. */
export function ruleKey(rule: PolicyRule): string {
  return canonicalJson({
    target: rule.target,
    connection: rule.connection === undefined ? '*' : rule.connection,
    effect: rule.effect,
    contract: rule.contract ?? null,
  });
}

/** Rules added and removed between two lists, compared by what they say (each occurrence counts). */
function ruleChanges(before: readonly PolicyRule[], after: readonly PolicyRule[]): PlannedRule[] {
  const remaining = new Map<string, number>();
  for (const rule of before) remaining.set(ruleKey(rule), (remaining.get(ruleKey(rule)) ?? 0) + 1);
  const changes: PlannedRule[] = [];
  for (const rule of after) {
    const key = ruleKey(rule);
    const left = remaining.get(key) ?? 0;
    if (left > 0) remaining.set(key, left - 1);
    else changes.push({ change: 'add', rule: ruleWords(rule) });
  }
  for (const rule of before) {
    const key = ruleKey(rule);
    const left = remaining.get(key) ?? 0;
    if (left > 0) {
      remaining.set(key, left - 1);
      changes.push({ change: 'remove', rule: ruleWords(rule) });
    }
  }
  return changes;
}

/** `ask on github.create_issue, connection work, pinned to its contract` */
export function ruleWords(rule: PolicyRule): string {
  const target =
    rule.target.kind === 'source' ? `every tool of ${rule.target.namespace}` : rule.target.address;
  const parts = [`${rule.effect} on ${target}`];
  if (rule.connection === null) parts.push('calls on no connection');
  else if (rule.connection !== undefined) parts.push(`connection ${rule.connection}`);
  if (rule.contract) parts.push(`pinned to contract ${rule.contract.slice(0, 12)}`);
  return parts.join(', ');
}
