/**
 * `hub status` without a terminal: the hosted hub as its signed-in person may see it (where,
 * who, its sources and their health, the runs waiting for a person, the last plan applied) and
 * what differs from the local hub: a plan of the local configuration made without secrets, whose
 * non-keep entries are the differences. Nothing is applied and no secret value is sent.
 */
import {
  HostedStatus,
  type HubConfiguration,
  type PlanAnswer,
} from '../../engine/contracts/configuration.ts';
import { inertLine } from '../../engine/inert.ts';
import { HOSTED_PATHS, type HostedClient } from './hosted-api.ts';
import { differenceLines, shortHash } from './plan-text.ts';
import { requestPlan } from './push.ts';

/** The local hub compared with the hosted one. */
export interface Comparison {
  /** The plan a push without secrets would make, and its hash. */
  plan: PlanAnswer['plan'];
  hash: string;
  /** True when applying it would change nothing. */
  match: boolean;
}

export interface StatusReport {
  url: string;
  hosted: HostedStatus;
  /** Null when there is no local hub to compare. */
  comparison: Comparison | null;
}

/** The hosted hub's status and, when `configuration` is given, how the local hub differs. */
export async function hostedStatus(
  client: HostedClient,
  configuration: HubConfiguration | undefined,
): Promise<StatusReport> {
  const hosted = await client.get(HOSTED_PATHS.status, HostedStatus);
  if (!configuration) return { url: client.url, hosted, comparison: null };
  const { plan, hash } = await requestPlan(client, configuration);
  return { url: client.url, hosted, comparison: { plan, hash, match: plan.empty } };
}

const when = (at: number): string => new Date(at).toISOString();

/** The report for a person. `localMissing` says why there is no comparison. */
export function statusText(report: StatusReport, localMissing: string): string {
  const { hosted, comparison } = report;
  const who = hosted.login === undefined ? '' : ` as ${inertLine(hosted.login)}`;
  const lines = [
    `Signed in to ${inertLine(report.url)}${who} (hub ${inertLine(hosted.hubId)}, schema version ${hosted.schemaVersion}).`,
  ];
  lines.push(
    hosted.sources.length === 0 ? 'No hosted sources.' : `Hosted sources (${hosted.sources.length}):`,
  );
  for (const source of hosted.sources) {
    lines.push(
      `  ${inertLine(source.namespace)}  ${inertLine(source.where)}  ${source.tools} tool${source.tools === 1 ? '' : 's'}  ${inertLine(source.health)}`,
    );
  }
  lines.push(
    hosted.waiting.length === 0
      ? 'No runs wait for a person.'
      : `Runs waiting for a person (${hosted.waiting.length}):`,
  );
  for (const run of hosted.waiting) {
    lines.push(
      `  ${inertLine(run.runId)}  ${inertLine(run.address)}  ${inertLine(run.summary)}  (since ${when(run.since)})`,
    );
  }
  lines.push(
    hosted.lastPlan === undefined
      ? 'No plan applied yet.'
      : `Last plan applied: ${shortHash(inertLine(hosted.lastPlan.hash))} at ${when(hosted.lastPlan.appliedAt)}.`,
  );
  if (comparison === null) lines.push(localMissing);
  else if (comparison.match) {
    const skipped = comparison.plan.sources
      .filter((s) => s.change === 'skip')
      .map((s) => inertLine(s.namespace));
    lines.push(
      `Local and hosted match.${skipped.length > 0 ? ` Stays local (cannot run hosted): ${skipped.join(', ')}.` : ''}`,
    );
  } else {
    lines.push(
      'Local and hosted differ; `capabilities hub push` would:',
      ...differenceLines(comparison.plan),
    );
  }
  return lines.join('\n');
}
