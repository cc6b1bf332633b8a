/**
 * The parts of a source's page that change it and say what changed: each tool's rule with a form
 * to set it (allow, ask, deny, or back to the default) beside the contract it pins to and how the
 * tool's next call is decided now; the source's history (who changed what, when); and the way to
 * remove it, which first shows what removal takes (source-remove-page.tsx). Every string from
 * the source goes through shown.ts.
 */
import type { PolicyRule } from '../engine/contracts/policy.ts';
import type { SourceEvent } from '../engine/contracts/source-history.ts';
import type { ToolRuleRow } from '../engine/desk/index.ts';
import type { ToolRuleChoice } from '../engine/sources/source-changes.ts';
import { line } from './shown.ts';
import { utc } from './when.ts';

/** The choices of a tool's rule form, with what each says. */
export const RULES: ReadonlyArray<{ rule: ToolRuleChoice; label: string }> = [
  { rule: 'default', label: 'Default: runs if it declares itself read-only, else asks' },
  { rule: 'allow', label: 'Allow: runs without asking' },
  { rule: 'ask', label: 'Ask: a person approves each call' },
  { rule: 'deny', label: 'Deny: never runs' },
];

const EFFECT_WORDS = { allow: 'runs without asking', ask: 'asks a person', deny: 'is refused' } as const;

/** Where another rule on the tool applies, in words. */
function otherRule(rule: PolicyRule): string {
  const on = rule.target.kind === 'source' ? 'its source' : 'the tool';
  const narrowed =
    rule.connection === undefined
      ? ''
      : rule.connection === null
        ? ', calls on no connection'
        : `, connection ${line(rule.connection)}`;
  const pinned = rule.contract === undefined ? ', whatever its contract' : '';
  return `${rule.effect} on ${on}${narrowed}${pinned}`;
}

export interface RulesProps {
  rows: ToolRuleRow[];
  csrf: string;
  /** Where each rule form posts, relative to the page. */
  action: string;
}

/** Each tool's rule and its form; nothing before the source's first tool list. */
export function ToolRules(props: RulesProps) {
  if (props.rows.length === 0) return <p>No tools yet: the hub has not read this source’s tool list.</p>;
  return (
    <>
      <p>
        A rule pins to the tool’s contract as shown here: should the tool change upstream, it asks again until
        you decide. A change applies from the tool’s next call.
      </p>
      {props.rows.map((row, index) => (
        <RuleRow row={row} index={index} csrf={props.csrf} action={props.action} />
      ))}
    </>
  );
}

function RuleRow(props: { row: ToolRuleRow; index: number; csrf: string; action: string }) {
  const { tool, rule, others, now } = props.row;
  const address = line(tool.address);
  const select = `rule-${props.index}`;
  return (
    <section class="call" aria-labelledby={`rule-tool-${props.index}`}>
      <h3 id={`rule-tool-${props.index}`}>{address}</h3>
      <dl>
        <dt>Contract</dt>
        <dd>
          <code>{tool.contract}</code>
        </dd>
        <dt>Next call</dt>
        <dd>
          {EFFECT_WORDS[now.effect]}: {line(now.reason)}
        </dd>
        {others.length > 0 ? (
          <>
            <dt>Other rules</dt>
            <dd>{others.map(otherRule).join('; ')}. A deny among them wins over the rule set here.</dd>
          </>
        ) : null}
      </dl>
      <form method="post" action={props.action}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <input type="hidden" name="address" value={tool.address} />
        <input type="hidden" name="contract" value={tool.contract} />
        <label for={select}>Rule for {address}</label>
        <select id={select} name="rule">
          {RULES.map((choice) => (
            <option value={choice.rule} selected={choice.rule === rule}>
              {choice.label}
            </option>
          ))}
        </select>{' '}
        <button type="submit">Set the rule</button>
      </form>
    </section>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One change in words, as the history lists it. */
export function changeText(event: SourceEvent): string {
  const { change } = event;
  switch (change.kind) {
    case 'rule':
      return change.effect === 'default'
        ? `${change.address}: rule back to the default (contract ${change.contract.slice(0, 12)}…)`
        : `${change.address}: rule set to ${change.effect}, pinned to contract ${change.contract.slice(0, 12)}…`;
    case 'reviewed':
      return `reviewed ${change.tools === 1 ? 'one tool' : `${change.tools} tools`}`;
    case 'removed':
      return `removed, with ${count(change.tools, 'tool', 'tools')}, ${count(change.connections, 'connection', 'connections')} and the secrets stored for ${change.connections === 1 ? 'it' : 'them'}, ${count(change.rules, 'policy rule', 'policy rules')}`;
  }
}

/** The source's history, newest first. */
export function History(props: { events: SourceEvent[] }) {
  if (props.events.length === 0) return <p>No changes made from a page yet.</p>;
  return (
    <ol>
      {props.events.map((event) => (
        <li>
          {utc(event.at)}, {line(event.who)}: {line(changeText(event))}
        </li>
      ))}
    </ol>
  );
}
