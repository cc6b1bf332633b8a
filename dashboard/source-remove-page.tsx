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

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What goes with the source, one line each; nothing for what it has none of. */
function taken(removal: Removal): string[] {
  const { tools, connections, rules, reviews } = removal;
  const lines: string[] = [];
  if (tools.length > 0)
    lines.push(
      `its ${count(tools.length, 'tool', 'tools')}: ${tools.map(line).join(', ')} (the next call of one finds no such tool)`,
    );
  if (connections.length > 0) {
    const named = connections.map(
      (c) =>
        `${line(c.name)} (${count(c.secrets, 'stored secret', 'stored secrets')}${c.signsIn ? ', a sign-in' : ''})`,
    );
    lines.push(
      `its ${count(connections.length, 'connection', 'connections')}: ${named.join(', ')}, with their secrets deleted from where the hub keeps them`,
    );
  }
  if (rules > 0) lines.push(`${count(rules, 'policy rule', 'policy rules')} on it or its tools`);
  if (reviews > 0)
    lines.push(`what you approved of ${count(reviews, 'tool', 'tools')} (added again, each asks anew)`);
  return lines;
}

export function RemoveSourcePage(props: { removal: Removal; shown: string; csrf: string; root: string }) {
  const { removal } = props;
  const ns = line(removal.namespace);
  const goes = taken(removal);
  const waiting = removal.waiting.length;
  return (
    <Layout title={`Remove ${ns}?`} root={props.root} current="sources">
      <p>
        <a href={`../${encodeURIComponent(removal.namespace)}`}>Back to the source</a>
      </p>
      <h1>Remove {ns}?</h1>
      {goes.length === 0 ? (
        <p>It has no tools, connections, rules or approvals yet: removing it takes only the source.</p>
      ) : (
        <>
          <p>Removing it takes with it, at once and for good:</p>
          <ul>
            {goes.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        </>
      )}
      {waiting > 0 ? (
        <>
          <p>
            {waiting === 1
              ? 'One run waits on a call to it. It stays; once the source is removed, its call finds no tool:'
              : `${waiting} runs wait on calls to it. They stay; once the source is removed, their calls find no tool:`}
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
        <input type="hidden" name="shown" value={props.shown} />
        <button type="submit" name="confirm" value="remove">
          Remove {ns}
        </button>
      </form>
    </Layout>
  );
}
