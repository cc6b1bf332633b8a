/**
 * Adding a remote source from the dashboard: the form (what is at the URL, chosen by the person:
 * an MCP server or an OpenAPI document; the URL; for a server optionally a credential for its
 * `default` connection, masked, with the header it is sent in; for a document optionally the API
 * server its calls go to) and the review of what the server or document offers, as a source's own
 * review shows it (source-review-page.tsx's `ReviewTools`), with the namespace to store it under,
 * a document's credentials (draft-credentials.tsx), Confirm and Cancel. A stdio server (a command
 * on a machine) is not added here; the page says why, in the host's words.
 *
 * No page ever holds the credential: the form is shown again without it, the review carries only
 * the draft's id (a server's credential waits in the secret store,
 * engine/sources/source-drafts.ts), and a document's key field is always empty.
 */
import { keyAsk, type OpenDraft } from '../engine/sources/source-drafts.ts';
import type { HostWording } from '../engine/wording.ts';
import { DraftCredentials } from './draft-credentials.tsx';
import { Layout } from './layout.tsx';
import { hrefIn } from './root.ts';
import { line } from './shown.ts';
import { ReviewTools } from './source-review-page.tsx';
import { urlShown, whereFrom } from './source-where.ts';

const FORM_STYLE = `
input[type=url], input[type=text], input[type=password] { font: inherit; width: 100%;
  box-sizing: border-box; min-height: 2.75rem; padding: .3rem .5rem; border-radius: .4rem; }
p.error { border-left: 4px solid var(--deny); padding-left: .75rem; }
`;

/** What is at the URL, as the person chose it. */
export type AddKind = 'mcp-http' | 'openapi';

/** What the person typed, to show again (never the credential). */
export interface AddSourceFields {
  kind: AddKind;
  url: string;
  header: string;
  scheme: string;
  /** An OpenAPI document's API server, when not the document's own. */
  server: string;
}

export const DEFAULT_FIELDS: AddSourceFields = {
  kind: 'mcp-http',
  url: '',
  header: 'Authorization',
  scheme: 'Bearer',
  server: '',
};

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
  /** True where the hub signs in to a server that asks for OAuth (source-sign-in-routes.tsx). */
  signsIn?: boolean | undefined;
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
        A remote MCP server, reached over Streamable HTTP at its URL, or an HTTP API described by an OpenAPI
        document at its URL, whose operations become tools. The hub lists the tools for you to review before
        anything is stored.
      </p>
      <p class="muted">A server that runs as a command (stdio) cannot be added here. {props.stdio}</p>
      {props.error ? (
        <p class="error" role="alert">
          {line(props.error)}
        </p>
      ) : null}
      <form method="post" action={addHref(props.root)}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <fieldset class="group">
          <legend>What is at the URL</legend>
          <label>
            <input type="radio" name="kind" value="mcp-http" checked={fields.kind === 'mcp-http'} /> An MCP
            server (Streamable HTTP)
          </label>
          <label>
            <input type="radio" name="kind" value="openapi" checked={fields.kind === 'openapi'} /> An OpenAPI
            document (JSON or YAML: OpenAPI 3.0, 3.1 or Swagger 2.0)
          </label>
        </fieldset>
        <label for="url">The server’s or the document’s URL</label>
        <input
          id="url"
          name="url"
          type="url"
          required
          value={fields.url}
          placeholder="https://mcp.example.com/mcp"
        />
        <fieldset class="group">
          <legend>For an OpenAPI document: where its calls go (optional)</legend>
          <p class="muted">
            Empty: the API server the document names first. Calls, and the key you enter on the next page, go
            to this server’s host only.
          </p>
          <label for="server">The API’s base URL</label>
          <input
            id="server"
            name="server"
            type="url"
            value={fields.server}
            placeholder="https://api.example.com/v1"
          />
        </fieldset>
        <fieldset class="group">
          <legend>For an MCP server: a credential, if it asks for one (optional)</legend>
          <p class="muted">
            Kept in the hub’s secret store as the source’s default connection, and sent to this server only.
            No page shows it again. An OpenAPI document names the credentials its operations take: you enter
            its key on the next page instead.
          </p>
          {props.signsIn ? (
            <p class="muted">
              A server that asks for an OAuth sign-in needs none: leave it empty, and the hub sends you to
              sign in there.
            </p>
          ) : null}
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
  /** How a person signs an OpenAPI source in to its API, in the host's words. */
  signInToApi: HostWording['signInToApi'];
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
      {record.source.kind === 'openapi' ? (
        <dl>
          <dt>OpenAPI document</dt>
          <dd>
            <code>{urlShown(record.source.document)}</code>
          </dd>
          <dt>Calls go to</dt>
          <dd>
            <code>{whereFrom(record.source)}</code>, and no other host than{' '}
            {line(record.source.allowedHosts.join(', '))}
          </dd>
          <dt>API</dt>
          <dd>
            {record.manifest.server
              ? line(`${record.manifest.server.name} ${record.manifest.server.version}`)
              : 'the document names no title'}
          </dd>
          <dt>Tools</dt>
          <dd>{count}</dd>
        </dl>
      ) : (
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
            {record.credential?.delivery.kind === 'oauth'
              ? 'your sign-in (OAuth), for the default connection: its token is sent to this server only'
              : record.credential
                ? `one, for the default connection, sent in the ${line(record.credential.delivery.kind === 'header' ? record.credential.delivery.name : '')} header`
                : 'none'}
          </dd>
          <dt>Tools</dt>
          <dd>{count}</dd>
        </dl>
      )}
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
        {record.source.kind === 'openapi' ? (
          <DraftCredentials
            asks={record.asks}
            hosts={record.source.allowedHosts}
            signIn={props.signInToApi(props.namespace, keyAsk(record.asks) ? 'signed-in' : 'default')}
          />
        ) : null}
        <p>
          {count === 0
            ? `The ${record.source.kind === 'openapi' ? 'document' : 'server'} lists no tools. Confirm adds it anyway; its tools are reviewed when it lists some.`
            : `The proposal allows the read-only tools and asks before each call of the others; confirming stores the source with the tools and contracts shown here, whatever the ${record.source.kind === 'openapi' ? 'document' : 'server'} says meanwhile.`}
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
