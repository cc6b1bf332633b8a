/**
 * Runs: the history of the hub's runs, newest first, as one table: each run's status, when it
 * started, how long it took, how many calls it made and who decided what through which channel,
 * with a link to its page. The list is capped; the page says so when it is cut. On a narrow
 * screen each row becomes a block of labelled lines.
 */
import type { Decision, PendingInput, Run } from '../engine/contracts/runs.ts';
import { labelOf } from './approval-page.tsx';
import { Layout } from './layout.tsx';
import { runHref } from './root.ts';
import { durationOf, hasEnded, statusOf } from './run-facts.ts';
import { line } from './shown.ts';
import { utc } from './when.ts';

export const RUNS_STYLE = `
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; padding-bottom: .25rem; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--line); }
td ul { margin: 0; padding-left: 1rem; }
@media (max-width: 40rem) {
  thead { position: absolute; left: -9999px; }
  tr, td, th[scope=row] { display: block; }
  tr { border-bottom: 1px solid var(--line); padding: .5rem 0; }
  th[scope=row], td { border: 0; padding: .15rem 0; }
  td::before { content: attr(data-label); color: var(--muted); padding-right: .5em; }
}
`;

export interface RunsPageProps {
  runs: Array<{ run: Run; calls: number; decided: Array<{ input: PendingInput; decision: Decision }> }>;
  /** How many runs the page lists at most; `cut` says there were more. */
  limit: number;
  cut: boolean;
  now: number;
  root: string;
}

export function RunsPage(props: RunsPageProps) {
  const { runs, root } = props;
  return (
    <Layout title="Runs" root={root} current="runs" style={RUNS_STYLE}>
      <h1>Runs</h1>
      {runs.length === 0 ? (
        <p>This hub has no runs yet: a run starts when an agent executes code.</p>
      ) : (
        <p>
          {props.cut
            ? `The newest ${props.limit} runs are listed; older ones are left out.`
            : `${runs.length === 1 ? 'One run' : `${runs.length} runs`}, newest first.`}{' '}
          Runs that ended are kept 7 days.
        </p>
      )}
      {runs.length === 0 ? null : (
        <table>
          <caption class="muted">Each run with its calls and who decided what</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Calls</th>
              <th scope="col">Decisions</th>
            </tr>
          </thead>
          <tbody>
            {runs.map(({ run, calls, decided }) => (
              <tr>
                <th scope="row">
                  <a href={runHref(root, run.id)}>{line(run.id)}</a>
                </th>
                <td data-label="Status">{statusOf(run)}</td>
                <td data-label="Started">{utc(run.createdAt)}</td>
                <td data-label="Duration">{durationOf(run, props.now)}</td>
                <td data-label="Calls">{calls}</td>
                <td data-label="Decisions">
                  {decided.length === 0 ? (
                    hasEnded(run) || run.status === 'running' ? (
                      'none'
                    ) : (
                      'none yet'
                    )
                  ) : (
                    <ul>
                      {decided.map(({ input, decision }) => (
                        <li>
                          {line(input.address)}: {labelOf(decision.choice)}, by {line(decision.who)} through
                          the {decision.channel}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
