/**
 * The approval page of one run (spec: Security and approvals, "Only a person approves"): every
 * call the run waits on, together, each with its tool address and connection, what the tool says
 * it does, why it asks, the arguments as recorded (scrubbed, cut at 4 KB) and when the request
 * expires; one plain form per call with the four choices as real buttons. Below, what was already
 * decided and by whom. Every string from an upstream or a guest goes through `shown.ts`.
 */
import type { Decision, DecisionChoice, PendingInput, Run } from '../engine/contracts/runs.ts';
import { Layout } from './layout.tsx';
import { line, shownArgs } from './shown.ts';
import { untilNow, utc } from './when.ts';

/** The four choices, in the order the page offers them, with what each button says. */
export const CHOICES: ReadonlyArray<{ choice: DecisionChoice; label: string }> = [
  { choice: 'once', label: 'Allow once' },
  { choice: 'run', label: 'Allow for this run' },
  { choice: 'always', label: 'Always allow' },
  { choice: 'deny', label: 'Deny' },
];

const labelOf = (choice: DecisionChoice) => CHOICES.find((c) => c.choice === choice)?.label ?? choice;

export interface ApprovalPageProps {
  run: Run;
  open: PendingInput[];
  decided: Array<{ input: PendingInput; decision: Decision }>;
  now: number;
  csrf: string;
  /** Where the forms post, relative to the page. */
  action: string;
}

export function ApprovalPage(props: ApprovalPageProps) {
  const { run, open, decided } = props;
  const runId = line(run.id);
  return (
    <Layout title={`Run ${runId}: ${open.length} call${open.length === 1 ? '' : 's'} to decide`}>
      <h1>Run {runId}</h1>
      {open.length === 0 ? (
        <p>
          Nothing is left to decide here. The run goes on when the agent resumes it; you can close this page.
        </p>
      ) : (
        <p>
          {open.length === 1 ? 'One call waits' : `${open.length} calls wait`} for your decision. Nothing runs
          until you allow it.
        </p>
      )}
      {open.map((input) => (
        <OpenCall input={input} now={props.now} csrf={props.csrf} action={props.action} />
      ))}
      {decided.length > 0 ? (
        <section aria-labelledby="decided">
          <h2 id="decided">Decided</h2>
          <ul>
            {decided.map(({ input, decision }) => (
              <li>
                {line(input.address)}
                {input.connection === null ? '' : ` (connection ${line(input.connection)})`}:{' '}
                <strong>{labelOf(decision.choice)}</strong>, by {line(decision.who)} through the{' '}
                {decision.channel}, {utc(decision.at)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Layout>
  );
}

function OpenCall(props: { input: PendingInput; now: number; csrf: string; action: string }) {
  const { input } = props;
  const heading = `call-${input.id}`;
  const args = input.args ? JSON.stringify(input.args, null, 2) : input.argsPreview;
  return (
    <section class="call" aria-labelledby={heading}>
      <h2 id={heading}>{line(input.address)}</h2>
      <dl>
        <dt>Connection</dt>
        <dd>{input.connection === null ? 'none' : line(input.connection)}</dd>
        <dt>The tool says</dt>
        <dd>{line(input.summary) || <span class="muted">nothing</span>}</dd>
        <dt>Why it asks</dt>
        <dd>{line(input.reason)}</dd>
        <dt>Expires</dt>
        <dd>
          {utc(input.expiresAt)} ({untilNow(input.expiresAt, props.now)})
        </dd>
      </dl>
      <p class="muted">Arguments, as the call would send them (secrets removed):</p>
      <pre>{shownArgs(args)}</pre>
      <form method="post" action={props.action}>
        <input type="hidden" name="pendingId" value={input.id} />
        <input type="hidden" name="csrf" value={props.csrf} />
        <fieldset>
          <legend>Decide on {line(input.address)}</legend>
          {CHOICES.map(({ choice, label }) => (
            <button type="submit" name="choice" value={choice}>
              {label}
            </button>
          ))}
        </fieldset>
      </form>
    </section>
  );
}
