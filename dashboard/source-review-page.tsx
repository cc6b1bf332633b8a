/**
 * A source's page: its facts (sources-page.tsx) and the review of its new and changed tools, as
 * the spec's quickstart shows it (step 3) and `capabilities hub review` asks it: grouped read-only
 * / writes / destructive, each with its proposed policy and, for a changed tool, what changed in
 * its contract since the person approved it (each part before and now). One form: "Accept all
 * proposals", or a labelled choice per tool and "Record these choices". Every row carries the
 * contract it was shown with, so a tool that changes meanwhile is not decided blind. Below it each
 * tool's rule, the source's history, and the way to remove it (source-rules.tsx). Every string
 * from the source goes through shown.ts.
 */

import type { PolicyEffect } from '../engine/contracts/policy.ts';
import type { SourceEvent } from '../engine/contracts/source-history.ts';
import type { ManifestTool } from '../engine/contracts/sources.ts';
import type { SourceSummary, ToolRuleRow } from '../engine/desk/index.ts';
import { CONTRACT_PARTS, changedParts } from '../engine/sources/manifest-diff.ts';
import type { ReviewItem, ToolClass } from '../engine/sources/review.ts';
import { ConnectionForm } from './connection-form.tsx';
import { Layout } from './layout.tsx';
import { line, shownArgs } from './shown.ts';
import { History, ToolRules } from './source-rules.tsx';
import { SourceFacts } from './sources-page.tsx';

/** The effects a review offers (the CLI's three), with what each choice says. */
export const EFFECTS: ReadonlyArray<{ effect: PolicyEffect; label: string }> = [
  { effect: 'allow', label: 'Allow: runs without asking' },
  { effect: 'ask', label: 'Ask: a person approves each call' },
  { effect: 'deny', label: 'Deny: never runs' },
];

const GROUPS: ReadonlyArray<{ class: ToolClass; heading: string }> = [
  { class: 'read-only', heading: 'Read-only: proposed allow (the tool declares itself read-only)' },
  {
    class: 'writes',
    heading: 'Writes: proposed ask (it changes something, or declares nothing about itself)',
  },
  { class: 'destructive', heading: 'Destructive: proposed ask, flagged (it says it deletes or overwrites)' },
];

/** The form field names of one row: the effect chosen, and the contract the tool was shown with. */
export const effectField = (address: string) => `effect:${address}`;
export const contractField = (address: string) => `contract:${address}`;

export interface SourceReviewPageProps {
  summary: SourceSummary;
  items: ReviewItem[];
  csrf: string;
  /** Where the form posts, relative to the page. */
  action: string;
  /** Where the connection form posts, relative to the page. */
  connectionAction: string;
  /** Each tool's rule, for the Rules forms (which post to `<namespace>/rule`). */
  rules: ToolRuleRow[];
  /** The source's history, newest first. */
  history: SourceEvent[];
  /** Where Sign in again posts, relative to the page; absent where the host cannot sign in. */
  signInAction?: string | undefined;
}

export function SourceReviewPage(props: SourceReviewPageProps) {
  const { summary, items } = props;
  const ns = line(summary.source.namespace);
  return (
    <Layout title={`Source ${ns}: ${items.length === 0 ? 'nothing' : items.length} to review`}>
      <p>
        <a href="../sources">All sources</a>
      </p>
      <h1>Source {ns}</h1>
      <SourceFacts summary={summary} />
      <h2>Credential</h2>
      {props.signInAction && summary.source.kind === 'mcp-http' ? (
        <SignInForms summary={summary} csrf={props.csrf} action={props.signInAction} />
      ) : null}
      <ConnectionForm source={summary.source} csrf={props.csrf} action={props.connectionAction} />
      <h2>Review</h2>
      {summary.listedAt === null ? (
        <p>Nothing to review yet: the hub has not read {ns}’s tool list.</p>
      ) : items.length === 0 ? (
        <p>Nothing waits for review: every tool of {ns} is as you approved it.</p>
      ) : (
        <form method="post" action={props.action}>
          <input type="hidden" name="csrf" value={props.csrf} />
          <p>
            {items.length === 1
              ? 'One tool is new or changed and asks before each call until you decide.'
              : `${items.length} tools are new or changed and ask before each call until you decide.`}{' '}
            The proposal allows the read-only tools and asks for the others; accepting pins each tool to the
            contract shown here.
          </p>
          <p>
            <button type="submit" name="choice" value="accept">
              Accept all proposals
            </button>
          </p>
          <ReviewTools items={items} />
          <p>
            <button type="submit" name="choice" value="adjust">
              Record these choices
            </button>
          </p>
        </form>
      )}
      <h2>Rules</h2>
      <ToolRules
        rows={props.rules}
        csrf={props.csrf}
        action={`${encodeURIComponent(summary.source.namespace)}/rule`}
      />
      <h2>History</h2>
      <History events={props.history} />
      <h2>Remove</h2>
      <p>
        <a href={`${encodeURIComponent(summary.source.namespace)}/remove`}>Remove {ns}…</a> (the next page
        shows what it takes with it, to confirm)
      </p>
    </Layout>
  );
}

/**
 * The tools of a review, grouped read-only / writes / destructive, each with its proposed policy
 * and the contract it is shown with: the inside of a review form (also the add-a-source review's,
 * source-add-page.tsx).
 */
export function ReviewTools(props: { items: ReviewItem[] }) {
  const { items } = props;
  return (
    <>
      {GROUPS.map((group) => {
        const rows = items.filter((item) => item.class === group.class);
        if (rows.length === 0) return null;
        return (
          <fieldset class="group">
            <legend>{group.heading}</legend>
            {rows.map((item) => (
              <ToolRow item={item} index={items.indexOf(item)} />
            ))}
          </fieldset>
        );
      })}
    </>
  );
}

function ToolRow(props: { item: ReviewItem; index: number }) {
  const { item, index } = props;
  const address = line(item.address);
  const select = `effect-${index}`;
  return (
    <section class="call" aria-labelledby={`tool-${index}`}>
      <h3 id={`tool-${index}`}>
        {item.class === 'destructive' ? '! ' : ''}
        {address}
      </h3>
      <p class="muted">
        {item.approved ? 'Changed since you approved it' : 'New'}; it {item.why}.
      </p>
      <div class="said">
        {item.tool.description ? shownArgs(item.tool.description) : 'It says nothing about itself.'}
      </div>
      {item.approved ? <ContractChange before={item.approved} now={item.tool} /> : null}
      <input type="hidden" name={contractField(item.address)} value={item.tool.contract} />
      <label for={select}>Policy for {address}</label>
      <select id={select} name={effectField(item.address)}>
        {EFFECTS.map(({ effect, label }) => (
          <option value={effect} selected={effect === item.proposed}>
            {label}
            {effect === item.proposed ? ' (proposed)' : ''}
          </option>
        ))}
      </select>
    </section>
  );
}

/** The keys of a tool's contract by the words a person reads them in. */
const PART_KEYS = Object.fromEntries(
  Object.entries(CONTRACT_PARTS).map(([key, part]) => [part, key]),
) as Record<string, keyof typeof CONTRACT_PARTS>;

const partText = (tool: ManifestTool, key: keyof typeof CONTRACT_PARTS): string => {
  const value = tool[key];
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
};

/** Each part of the contract that changed, as approved and as it is now. */
function ContractChange(props: { before: ManifestTool; now: ManifestTool }) {
  const parts = changedParts(props.before, props.now);
  return (
    <div>
      <p>What changed in its contract: {parts.join(', ')}.</p>
      {parts.map((part) => {
        const key = PART_KEYS[part] ?? 'description';
        return (
          <dl class="diff">
            <dt>{part}, as you approved it</dt>
            <dd>
              <pre>{shownArgs(partText(props.before, key))}</pre>
            </dd>
            <dt>{part}, now</dt>
            <dd>
              <pre>{shownArgs(partText(props.now, key))}</pre>
            </dd>
          </dl>
        );
      })}
    </div>
  );
}

/**
 * Sign in again, for each connection that signs in with OAuth (saying when the source refused its
 * last token, or when the hub holds no grant yet: a pushed connection); Sign in with OAuth for a
 * source without one.
 */
function SignInForms(props: { summary: SourceSummary; csrf: string; action: string }) {
  const signed = props.summary.connections.filter((c) =>
    c.secrets.some((ref) => ref.delivery.kind === 'oauth'),
  );
  const form = (connection: string, label: string) => (
    <form method="post" action={props.action}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="connection" value={connection} />
      <button type="submit">{label}</button>
    </form>
  );
  if (signed.length === 0) return form('default', 'Sign in with OAuth');
  return (
    <>
      {signed.map((connection) => {
        const refused = connection.secrets.some((ref) => ref.delivery.kind === 'oauth' && ref.refused);
        return (
          <div>
            <p>
              Connection {line(connection.name)} signs in with OAuth
              {refused
                ? ': the source refused its last token (401). If a refresh does not mend it, calls on it wait until you sign in again.'
                : '.'}
            </p>
            {form(connection.name, 'Sign in again')}
          </div>
        );
      })}
    </>
  );
}
