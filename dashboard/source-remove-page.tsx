/**
 * The first step of removing a source: what removal takes with it (its tools, its connections
 * and their stored secrets, its policy rules, what a person approved of its tools, and the runs
 * waiting on it, which stay but whose call finds no tool), then a Confirm form carrying the page
 * session's CSRF token. Nothing is removed until Confirm.
 */
import type { Removal } from '../engine/sources/source-changes.ts';
import { Layout } from './layout.tsx';
import { runHref } from './root.ts';
import { line } from './shown.ts';

const count = (n: number, one: string, many: string) => `${n === 0 ? 'no' : n} ${n === 1 ? one : many}`;

export function RemoveSourcePage(props: { removal: Removal; csrf: string; root: string }) {
  const { removal } = props;
  const ns = line(removal.namespace);
  return (
    <Layout title={`Remove ${ns}?`} root={props.root} current="sources">
      <p>
        <a href={`../${encodeURIComponent(removal.namespace)}`}>Back to the source</a>
      </p>
      <h1>Remove {ns}?</h1>
      <p>Removing it takes with it, at once and for good:</p>
      <ul>
        <li>
          its {count(removal.tools.length, 'tool', 'tools')}
          {removal.tools.length > 0 ? `: ${removal.tools.map(line).join(', ')}` : ''}; the next call of one
          finds no such tool;
        </li>
        <li>
          its {count(removal.connections.length, 'connection', 'connections')}
          {removal.connections.length > 0
            ? `: ${removal.connections
                .map(
                  (c) =>
                    `${line(c.name)} (${count(c.secrets, 'stored secret', 'stored secrets')}${c.signsIn ? ', a sign-in' : ''})`,
                )
                .join(', ')}`
            : ''}
          , with their secrets deleted from where the hub keeps them;
        </li>
        <li>{count(removal.rules, 'policy rule', 'policy rules')} on it or its tools;</li>
        <li>what you approved of {count(removal.reviews, 'tool', 'tools')} (added again, each asks anew).</li>
      </ul>
      {removal.waiting.length > 0 ? (
        <>
          <p>
            {removal.waiting.length === 1 ? 'One run waits' : `${removal.waiting.length} runs wait`} on a call
            to it. They stay; once it is removed their call finds no tool:
          </p>
          <ul>
            {removal.waiting.map((run) => (
              <li>
                <a href={runHref(props.root, run.runId)}>{line(run.runId)}</a>:{' '}
                {run.addresses.map(line).join(', ')}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>No run waits on it.</p>
      )}
      <form method="post" action="remove">
        <input type="hidden" name="csrf" value={props.csrf} />
        <button type="submit" name="confirm" value="remove">
          Remove {ns}
        </button>
      </form>
    </Layout>
  );
}
