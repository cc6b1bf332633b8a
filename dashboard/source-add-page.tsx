/**
 * Adding a remote source from the dashboard: the form (the server's URL, and optionally a
 * credential for its `default` connection, masked, with the header it is sent in) and the
 * review of what the server offers, as a source's own review shows it (source-review-page.tsx's
 * `ReviewTools`), with the namespace to store it under, Confirm and Cancel. A stdio server (a
 * command on a machine) is not added here; the page says why, in the host's words.
 *
 * No page ever holds the credential: the form is shown again without it, and the review carries
 * only the draft's id (the credential waits in the secret store, engine/sources/source-drafts.ts).
 */
import type { OpenDraft } from '../engine/sources/source-drafts.ts';
import { Layout } from './layout.tsx';
import { hrefIn } from './root.ts';
import { line } from './shown.ts';
import { ReviewTools } from './source-review-page.tsx';
import { whereFrom } from './source-where.ts';

const FORM_STYLE = `
input[type=url], input[type=text], input[type=password] { font: inherit; width: 100%;
  box-sizing: border-box; min-height: 2.75rem; padding: .3rem .5rem; border-radius: .4rem; }
p.error { border-left: 4px solid var(--deny); padding-left: .75rem; }
`;

/** What the person typed, to show again (never the credential). */
export interface AddSourceFields {
  url: string;
  header: string;
  scheme: string;
}

export const DEFAULT_FIELDS: AddSourceFields = { url: '', header: 'Authorization', scheme: 'Bearer' };

/** Where the add-a-source pages are under the dashboard's `root`. */
export const addHref = (root: string, path = ''): string =>
  hrefIn(root, path === '' ? 'sources/new' : `sources/new/${path}`);

export interface AddSourcePageProps {
  root: string;
  csrf: string;
  fields: AddSourceFields;
  /** Why the last try failed, already scrubbed. */
  error?: string | undefined;
  /** The host's sentence on adding a stdio server (HostWording.addStdioSource). */
  stdio: string;
}

export function AddSourcePage(props: AddSourcePageProps) {
  const { fields } = props;
  return (
    <Layout title="Add a source" root={props.root} current="sources" style={FORM_STYLE}>
      <p>
        <a href={hrefIn(props.root, 'sources')}>All sources</a>
      </p>
      <h1>Add a source</h1>
      <p>
        A remote MCP server, reached over Streamable HTTP at its URL. The hub lists its tools for you to
        review before anything is stored.
      </p>
      <p class="muted">A server that runs as a command (stdio) cannot be added here. {props.stdio}</p>
      {props.error ? (
        <p class="error" role="alert">
          {line(props.error)}
        </p>
      ) : null}
      <form method="post" action={addHref(props.root)}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="url">The server’s URL</label>
        <input
          id="url"
          name="url"
          type="url"
          required
          value={fields.url}
          placeholder="https://mcp.example.com/mcp"
        />
        <fieldset class="group">
          <legend>A credential, if the server asks for one (optional)</legend>
          <p class="muted">
            Kept in the hub’s secret store as the source’s default connection, and sent to this server only.
            No page shows it again.
          </p>
          <label for="credential">Token or key</label>
          <input id="credential" name="credential" type="password" autocomplete="off" />
          <label for="header">Sent in the header</label>
          <input id="header" name="header" type="text" value={fields.header} />
          <label for="scheme">With the scheme (empty: the value alone)</label>
          <input id="scheme" name="scheme" type="text" value={fields.scheme} />
        </fieldset>
        <p>
          <button type="submit">List its tools</button>
        </p>
      </form>
    </Layout>
  );
}

export interface DraftReviewPageProps {
  root: string;
  csrf: string;
  draft: OpenDraft;
  /** The namespace to show in the field: the proposal, or what the person typed. */
  namespace: string;
  /** Why the last Confirm was refused. */
  error?: string | undefined;
}

export function DraftReviewPage(props: DraftReviewPageProps) {
  const { record, review } = props.draft;
  const id = record.id;
  const count = review.length;
  return (
    <Layout title={`Add ${line(props.namespace)}: review ${count} tools`} root={props.root} current="sources">
      <p>
        <a href={hrefIn(props.root, 'sources')}>All sources</a>
      </p>
      <h1>Review before adding</h1>
      <dl>
        <dt>From</dt>
        <dd>
          <code>{whereFrom(record.source)}</code>
        </dd>
        <dt>Server</dt>
        <dd>
          {record.manifest.server
            ? line(`${record.manifest.server.name} ${record.manifest.server.version}`)
            : 'it did not say'}
        </dd>
        <dt>Credential</dt>
        <dd>
          {record.credential
            ? `one, for the default connection, sent in the ${line(record.credential.delivery.kind === 'header' ? record.credential.delivery.name : '')} header`
            : 'none'}
        </dd>
        <dt>Tools</dt>
        <dd>{count}</dd>
      </dl>
      {record.notices.length > 0 ? (
        <section class="call" aria-label="Notices">
          <h2>What the hub left out or cut</h2>
          <ul>
            {record.notices.map((notice) => (
              <li>{line(notice)}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {props.error ? (
        <p class="error" role="alert">
          {line(props.error)}
        </p>
      ) : null}
      <form method="post" action={addHref(props.root, `${encodeURIComponent(id)}/confirm`)}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="namespace">Its namespace: its tools appear to code as namespace.tool</label>
        <input
          id="namespace"
          name="namespace"
          type="text"
          required
          value={props.namespace}
          pattern="[a-z][a-z0-9_]{0,39}"
        />
        <p>
          {count === 0
            ? 'The server lists no tools. Confirm adds it anyway; its tools are reviewed when it lists some.'
            : 'The proposal allows the read-only tools and asks before each call of the others; confirming stores the source with the tools and contracts shown here, whatever the server says meanwhile.'}
        </p>
        {count > 0 ? <ReviewTools items={review} /> : null}
        <p>
          <button type="submit" name="choice" value={count === 0 ? 'accept' : 'adjust'}>
            Confirm: add this source
          </button>
        </p>
      </form>
      <form method="post" action={addHref(props.root, `${encodeURIComponent(id)}/cancel`)}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <button type="submit" name="choice" value="cancel">
          Cancel: add nothing
        </button>
      </form>
    </Layout>
  );
}
