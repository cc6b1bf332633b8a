/**
 * The approval forms of one waiting run (spec: Security and approvals, "Only a person approves"):
 * every call the run waits on, together, each with its tool address and connection, what the tool
 * says it does, why it asks, the arguments as recorded (scrubbed, cut at 4 KB) and when the
 * request expires; one plain form per call with the four choices as real buttons, and a `back`
 * field that says which page the decision returns to (the run's page or the inbox, nothing else).
 * Also what was already decided and by whom. Every string from an upstream or a guest goes through
 * `shown.ts`. The run page and the inbox show these; they own the page around them.
 */
import { parseToolAddress } from '../engine/address.ts';
import type { Decision, DecisionChoice, PendingInput } from '../engine/contracts/runs.ts';
import type { HostWording } from '../engine/wording.ts';
import type { Back } from './back.ts';
import { argsCut, line, shownArgs, wholeArgs } from './shown.ts';
import { untilNow, utc } from './when.ts';

/** The four choices, in the order the page offers them, with what each button says. */
export const CHOICES: ReadonlyArray<{ choice: DecisionChoice; label: string }> = [
  { choice: 'once', label: 'Allow once' },
  { choice: 'run', label: 'Allow for this run' },
  { choice: 'always', label: 'Always allow' },
  { choice: 'deny', label: 'Deny' },
];

/** What the button of `choice` says. */
export const labelOf = (choice: DecisionChoice) => CHOICES.find((c) => c.choice === choice)?.label ?? choice;

/** A waiting run's open calls, each decidable, with a sentence that says how many wait. */
export function OpenCalls(props: {
  open: PendingInput[];
  now: number;
  csrf: string;
  action: string;
  signInAgain: HostWording['signInAgain'];
}) {
  const { open } = props;
  const toDecide = open.filter((input) => input.kind === 'approval').length;
  return (
    <>
      {toDecide === 0 ? (
        <p>
          Nothing is left to decide here. The run goes on when the agent resumes it; you can close this page.
        </p>
      ) : (
        <p>
          {toDecide === 1 ? 'One call waits' : `${toDecide} calls wait`} for your decision. Nothing runs until
          you allow it.
        </p>
      )}
      {open.map((input) => (
        <OpenCall
          input={input}
          now={props.now}
          csrf={props.csrf}
          action={props.action}
          back="run"
          signInAgain={props.signInAgain}
        />
      ))}
    </>
  );
}

/** What was decided on the run's calls: the choice, who, through which channel, when. */
export function DecidedCalls(props: { decided: Array<{ input: PendingInput; decision: Decision }> }) {
  if (props.decided.length === 0) return null;
  return (
    <section aria-labelledby="decided">
      <h2 id="decided">Decided</h2>
      <ul>
        {props.decided.map(({ input, decision }) => (
          <li>
            {line(input.address)}
            {input.connection === null ? '' : ` (connection ${line(input.connection)})`}:{' '}
            <strong>{labelOf(decision.choice)}</strong>, by {line(decision.who)} through the{' '}
            {decision.channel}, {utc(decision.at)}
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface OpenCallProps {
  input: PendingInput;
  now: number;
  csrf: string;
  /** Where the form posts (`…/runs/:runId/decide`), relative to the page or from the root. */
  action: string;
  /** The page the decision returns to. */
  back: Back;
  /** The call's heading level: 2 on the run's page, 3 under a run's heading in the inbox. */
  level?: 2 | 3;
  /** How a person signs a connection in again, in the host's words (a call waiting for a sign-in). */
  signInAgain: HostWording['signInAgain'];
}

/** One open call with everything a person decides on, and its form with the four choices. */
export function OpenCall(props: OpenCallProps) {
  const { input } = props;
  if (input.kind === 'connection') return <SignInWait {...props} />;
  const heading = `call-${input.id}`;
  const args = input.args ? JSON.stringify(input.args, null, 2) : input.argsPreview;
  const title = line(input.address);
  return (
    <section class="call" aria-labelledby={heading}>
      {props.level === 3 ? <h3 id={heading}>{title}</h3> : <h2 id={heading}>{title}</h2>}
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
      {argsCut(args) ? (
        // Allow covers every byte of the call, so every byte can be read here before deciding.
        <>
          <p>
            <strong>These arguments are longer than shown above.</strong> Allowing the call allows all of
            them: read them whole before you allow it.
          </p>
          <details>
            <summary>All {new TextEncoder().encode(args).length} bytes of the arguments</summary>
            <pre>{wholeArgs(args)}</pre>
          </details>
        </>
      ) : null}
      <form method="post" action={props.action}>
        <input type="hidden" name="pendingId" value={input.id} />
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="back" value={props.back} />
        <fieldset>
          <legend>Decide on {title}</legend>
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

/**
 * A call that waits for its connection to be signed in again: nothing to decide here (a decision
 * would be refused), so no form; what the person does instead, in the host's words.
 */
function SignInWait(props: OpenCallProps) {
  const { input } = props;
  const heading = `call-${input.id}`;
  const title = line(input.address);
  const namespace = parseToolAddress(input.address)?.namespace ?? input.address;
  const connection = input.connection ?? 'default';
  return (
    <section class="call" aria-labelledby={heading}>
      {props.level === 3 ? <h3 id={heading}>{title}</h3> : <h2 id={heading}>{title}</h2>}
      <p>
        This call waits for connection {line(`${namespace}/${connection}`)} to be signed in again: its sign-in
        no longer works. Nothing runs until then, and there is nothing to decide here.
      </p>
      <p>Next: {line(props.signInAgain(namespace, connection))}. Then the agent resumes the run.</p>
    </section>
  );
}
