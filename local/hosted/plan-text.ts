/**
 * A hosted hub's plan as a person reads it: source by source (add, change, remove, keep, skip
 * with its reason), tool by tool (read-only or writes), each connection and what happens to each
 * of its secrets (never a value: a plan holds none), the rules added and removed, each profile and
 * skill (what it shows; its files), and the plan's hash in its short form. Every string the hosted hub wrote is shown inert on one line
 * (engine/inert.ts), so a plan cannot forge a line of ours.
 */
import type {
  Plan,
  PlannedProfile,
  PlannedSecret,
  PlannedSkill,
  PlannedSource,
} from '../../engine/contracts/configuration.ts';
import { inertLine } from '../../engine/inert.ts';

/** How many hex digits of a plan's hash a person is shown (the full hash is in --json). */
export const SHORT_HASH_LENGTH = 12;

export const shortHash = (hash: string): string => hash.slice(0, SHORT_HASH_LENGTH);

/** Sources by what the plan does to them. */
export interface PlanCounts {
  added: number;
  changed: number;
  removed: number;
  skipped: number;
  kept: number;
}

export function planCounts(plan: Plan): PlanCounts {
  const count = (change: PlannedSource['change']) => plan.sources.filter((s) => s.change === change).length;
  return {
    added: count('add'),
    changed: count('change'),
    removed: count('remove'),
    skipped: count('skip'),
    kept: count('keep'),
  };
}

/** `N added, M changed, K removed, S skipped`. */
export const countsText = (counts: PlanCounts): string =>
  `${counts.added} added, ${counts.changed} changed, ${counts.removed} removed, ${counts.skipped} skipped`;

/** What each fate of a secret means, in words. */
const SECRET_FATE: Record<PlannedSecret['value'], string> = {
  set: 'set (the value you consented to is sent; the hosted hub has none)',
  replace: 'replace (the value you consented to replaces the hosted one)',
  keep: 'keep (the hosted value stays)',
  missing:
    'missing (neither hub sends one: calls wait until it is entered on the source’s page or pushed with --secrets)',
  forget:
    'forget (the hosted value is deleted, not sent where the source now is: calls wait until it is entered again or pushed with --secrets)',
  remove: 'remove (goes with its connection)',
  'sign-in':
    'sign in again on the hosted hub (a sign-in is never pushed: use Sign in again on the source’s page in its dashboard; calls there wait until then)',
};

/** The lines of one source of a plan, indented under its heading. */
export function sourceLines(source: PlannedSource): string[] {
  const lines = [`  ${source.change.padEnd(6)}  ${inertLine(source.namespace)}  ${inertLine(source.where)}`];
  if (source.reason !== undefined) lines.push(`            why: ${inertLine(source.reason)}`);
  if (source.reaches !== undefined) {
    lines.push(`            reaches: ${source.reaches.map((host) => inertLine(host)).join(', ')}`);
  }
  for (const tool of source.tools) {
    const differs = tool.differs === undefined ? '' : `; differs: ${inertLine(tool.differs)}`;
    lines.push(
      `            tool ${tool.change.padEnd(6)}  ${inertLine(tool.address)}  (${tool.readOnly ? 'read-only' : 'writes'}${differs})`,
    );
  }
  if (source.toolsKept > 0) {
    lines.push(`            ${source.toolsKept} tool${source.toolsKept === 1 ? '' : 's'} unchanged`);
  }
  for (const connection of source.connections) {
    lines.push(
      `            connection ${inertLine(source.namespace)}/${inertLine(connection.name)}${connection.isDefault ? ' (default)' : ''}: ${connection.change}`,
    );
    for (const secret of connection.secrets) {
      lines.push(
        `              secret ${inertLine(secret.key)} (${inertLine(secret.delivery)}): ${SECRET_FATE[secret.value]}`,
      );
    }
  }
  for (const review of source.reviews) {
    lines.push(
      review.change === 'add'
        ? `            approve ${inertLine(review.address)} as it is listed (it runs as its rules say, without a new review)`
        : `            forget  the approval of ${inertLine(review.address)} (it is reviewed again before it runs)`,
    );
  }
  for (const rule of source.rules) {
    lines.push(`            rule ${rule.change.padEnd(6)}  ${inertLine(rule.rule)}`);
  }
  return lines;
}

/** One profile of a plan: what it shows and how it serves, and what differs for a change. */
export function profileLine(profile: PlannedProfile): string {
  const differs = profile.differs === undefined ? '' : `; differs: ${inertLine(profile.differs)}`;
  return `  ${profile.change.padEnd(6)}  profile ${inertLine(profile.name)} (${profile.mode} mode; ${inertLine(profile.shows)}${differs})`;
}

/** One skill of a plan: its files and size, what it is for, and what differs for a change. */
export function skillLine(skill: PlannedSkill): string {
  const differs = skill.differs === undefined ? '' : `; differs: ${inertLine(skill.differs)}`;
  return `  ${skill.change.padEnd(6)}  skill ${inertLine(skill.name)} (${skill.files} file${skill.files === 1 ? '' : 's'}, ${skill.bytes} bytes${differs}): ${inertLine(skill.description)}`;
}

/** `2 to add, 1 to remove, 3 kept`: a plan's profiles or skills by change, those there are. */
function changeCounts(items: readonly { change: string }[]): string {
  const count = (change: string) => items.filter((item) => item.change === change).length;
  const parts = [
    [count('add'), 'to add'],
    [count('change'), 'to change'],
    [count('remove'), 'to remove'],
    [count('keep'), 'kept'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(', ');
}

/** The whole plan for a person: a heading, every source, profile and skill, and the counts. */
export function planText(plan: Plan, hash: string, url: string): string {
  const counts = planCounts(plan);
  return [
    `Plan ${shortHash(hash)} for ${inertLine(url)}:`,
    ...plan.sources.flatMap(sourceLines),
    ...plan.profiles.map(profileLine),
    ...plan.skills.map(skillLine),
    `Sources: ${counts.added} to add, ${counts.changed} to change, ${counts.removed} to remove, ${counts.skipped} skipped, ${counts.kept} kept.`,
    ...(plan.profiles.length > 0 ? [`Profiles: ${changeCounts(plan.profiles)}.`] : []),
    ...(plan.skills.length > 0 ? [`Skills: ${changeCounts(plan.skills)}.`] : []),
  ].join('\n');
}

/**
 * What differs between the local hub and the hosted one: the sources a plan does something to
 * (keep left out), each on one line; empty when the two match.
 */
export function differenceLines(plan: Plan): string[] {
  return [
    ...plan.sources
      .filter((source) => source.change !== 'keep')
      .map((source) => {
        const tools = source.tools.length > 0 ? `, ${source.tools.length} tool changes` : '';
        const reason = source.reason === undefined ? '' : `: ${inertLine(source.reason)}`;
        return `  ${source.change.padEnd(6)}  ${inertLine(source.namespace)}${tools}${reason}`;
      }),
    ...plan.profiles.filter((profile) => profile.change !== 'keep').map(profileLine),
    ...plan.skills.filter((skill) => skill.change !== 'keep').map(skillLine),
  ];
}
