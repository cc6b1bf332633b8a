/**
 * The inbox: every run waiting for a person, newest first, each with its open calls decidable in
 * place (the approval page's forms, returning here after a decision). A waiting run whose calls
 * are all decided waits for its agent, not for a person: the inbox counts it and leaves it to
 * Runs. Every string from an upstream or a guest goes through `shown.ts`.
 */
import type { PendingInput, Run } from '../engine/contracts/runs.ts';
import type { HostWording } from '../engine/wording.ts';
import { OpenCall } from './approval-page.tsx';
import { Layout } from './layout.tsx';
import { hrefIn, runHref } from './root.ts';
import { line } from './shown.ts';
import { utc } from './when.ts';

const INBOX_STYLE = `
section.run { margin-top: 2rem; }
section.call h3 { font-size: 1.1rem; margin: 0 0 .5rem; }
`;

export interface InboxPageProps {
  /** The waiting runs with at least one open call, newest first. */
  waiting: Array<{ run: Run; open: PendingInput[] }>;
  /** Waiting runs whose calls are all decided (they wait for their agent to resume). */
  decided: number;
  /** True when there were more waiting runs than the inbox lists. */
  cut: boolean;
  now: number;
  csrf: string;
  root: string;
  /** How a person signs a connection in again, in the host's words. */
  signInAgain: HostWording['signInAgain'];
}

export function InboxPage(props: InboxPageProps) {
  const { waiting, root } = props;
  const calls = waiting.reduce((sum, { open }) => sum + open.length, 0);
  return (
    <Layout
      title={calls === 0 ? 'Inbox: nothing to decide' : `Inbox: ${calls} to decide`}
      root={root}
      current="inbox"
      style={INBOX_STYLE}
    >
      <h1>Inbox</h1>
      {waiting.length === 0 ? (
        <p>Nothing waits for you: no run is waiting for a person’s decision.</p>
      ) : (
        <p>
          {waiting.length === 1 ? 'One run waits' : `${waiting.length} runs wait`} for your decision, newest
          first. Nothing runs until you allow it.
        </p>
      )}
      {props.cut ? (
        <p>Only the newest waiting runs are listed here; decide these to see the others.</p>
      ) : null}
      {props.decided > 0 ? (
        <p class="muted">
          {props.decided === 1
            ? 'One more run is decided and waits for its agent to resume'
            : `${props.decided} more runs are decided and wait for their agents to resume`}
          ; see <a href={hrefIn(root, 'runs')}>Runs</a>.
        </p>
      ) : null}
      {waiting.map(({ run, open }) => {
        const heading = `run-${run.id}`;
        return (
          <section class="run" aria-labelledby={heading}>
            <h2 id={heading}>
              <a href={runHref(root, run.id)}>Run {line(run.id)}</a>
            </h2>
            <p class="muted">
              Started {utc(run.createdAt)};{' '}
              {open.length === 1 ? 'one call waits' : `${open.length} calls wait`}.
            </p>
            {open.map((input) => (
              <OpenCall
                input={input}
                now={props.now}
                csrf={props.csrf}
                action={hrefIn(root, `runs/${encodeURIComponent(run.id)}/decide`)}
                back="inbox"
                level={3}
                signInAgain={props.signInAgain}
              />
            ))}
          </section>
        );
      })}
    </Layout>
  );
}
