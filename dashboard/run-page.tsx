/**
 * A run's page, whatever its status: when the run waits for a person, the approval forms first
 * (approval-page.tsx), so the page a hub opens for a request is where the person decides; always,
 * what the run is (status, start, duration, attempts, how it failed), what was decided, and its
 * journal as a timeline (timeline.tsx). Every string from an upstream or a guest goes through
 * `shown.ts`.
 */
import type { Decision, PendingInput, Run } from '../engine/contracts/runs.ts';
import type { HostWording } from '../engine/wording.ts';
import { DecidedCalls, OpenCalls } from './approval-page.tsx';
import { Layout } from './layout.tsx';
import { durationOf, statusOf } from './run-facts.ts';
import { line } from './shown.ts';
import { TIMELINE_STYLE, TimelineView } from './timeline.tsx';
import type { Timeline } from './timeline-model.ts';
import { utc } from './when.ts';

export interface RunPageProps {
  run: Run;
  /** The open calls of a waiting run; undefined when the run waits for no one. */
  open: PendingInput[] | undefined;
  decided: Array<{ input: PendingInput; decision: Decision }>;
  timeline: Timeline;
  now: number;
  csrf: string;
  /** Where the forms post, relative to the page. */
  action: string;
  /** Where the dashboard is mounted (for the navigation). */
  root: string;
  /** How a person signs a connection in again, in the host's words. */
  signInAgain: HostWording['signInAgain'];
}

export function RunPage(props: RunPageProps) {
  const { run, open } = props;
  const runId = line(run.id);
  const title =
    open === undefined
      ? `Run ${runId}: ${statusOf(run)}`
      : `Run ${runId}: ${open.length} call${open.length === 1 ? '' : 's'} to decide`;
  return (
    <Layout title={title} root={props.root} current="runs" style={TIMELINE_STYLE}>
      <h1>Run {runId}</h1>
      {open === undefined ? null : (
        <OpenCalls
          open={open}
          now={props.now}
          csrf={props.csrf}
          action={props.action}
          signInAgain={props.signInAgain}
        />
      )}
      <section aria-labelledby="about">
        <h2 id="about">About this run</h2>
        <dl>
          <dt>Status</dt>
          <dd>{statusOf(run)}</dd>
          <dt>Started</dt>
          <dd>{utc(run.createdAt)}</dd>
          <dt>Duration</dt>
          <dd>{durationOf(run, props.now)}</dd>
          <dt>Attempts</dt>
          <dd>{run.attempts}</dd>
          {run.error ? (
            <>
              <dt>Error</dt>
              <dd>
                {line(run.error.code)}: {line(run.error.message)}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      <DecidedCalls decided={props.decided} />
      <TimelineView timeline={props.timeline} />
    </Layout>
  );
}
