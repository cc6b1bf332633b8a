/**
 * The Sources page: every source of the hub with where it comes from (never a secret: see
 * source-where.ts), its health as the store knows it (when its tool list was last read, whether
 * a stdio command has the person's consent), its connections by name, how many tools it has and
 * how many wait for review, with a link to its review, and (where the host adds sources from the
 * dashboard) a link to Add a source. `SourceFacts` is the same block on a
 * source's own page. Reads only what the desk's `SourceSummary` holds; nothing here connects to
 * a source.
 */
import type { SourceEvent } from '../engine/contracts/source-history.ts';
import { hasConsent } from '../engine/contracts/sources.ts';
import type { SourceSummary } from '../engine/desk/index.ts';
import { Layout } from './layout.tsx';
import { line } from './shown.ts';
import { changeText } from './source-rules.tsx';
import { whereFrom } from './source-where.ts';
import { utc } from './when.ts';

const KIND: Record<SourceSummary['source']['kind'], string> = {
  'mcp-stdio': 'stdio: a command this machine runs',
  'mcp-http': 'HTTP: a remote server',
  openapi: 'OpenAPI: an HTTP API described by its document',
};

/** The health the store knows: no tool list yet, a command without consent, or when it was read. */
export function healthOf(summary: SourceSummary): string {
  const { source, listedAt } = summary;
  if (source.kind === 'mcp-stdio' && !hasConsent(source))
    return 'Does not run: you have not consented to its exact command; add it again to review the command.';
  if (listedAt === null) return 'No tool list read yet: refresh the source to read it.';
  return `Tool list last read ${utc(listedAt)}.`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The facts of one source: kind, where from, health, tools, connections. */
export function SourceFacts(props: { summary: SourceSummary }) {
  const { source, tools, connections } = props.summary;
  return (
    <dl>
      <dt>Kind</dt>
      <dd>{KIND[source.kind]}</dd>
      <dt>From</dt>
      <dd>
        <code>{whereFrom(source)}</code>
      </dd>
      <dt>Health</dt>
      <dd>{healthOf(props.summary)}</dd>
      <dt>Tools</dt>
      <dd>{tools}</dd>
      <dt>Connections</dt>
      <dd>
        {connections.length === 0
          ? 'none'
          : connections.map((c) => `${line(c.name)}${c.isDefault ? ' (default)' : ''}`).join(', ')}
      </dd>
    </dl>
  );
}

/**
 * `canAdd`: the host adds sources from the dashboard (a link to Add a source); `removed`: the
 * removals the sources' history holds, newest first (a removed source has no page of its own).
 */
export function SourcesPage(props: { sources: SourceSummary[]; canAdd?: boolean; removed?: SourceEvent[] }) {
  const { sources } = props;
  const waiting = sources.reduce((sum, s) => sum + s.toReview, 0);
  return (
    <Layout title={`Sources: ${sources.length}${waiting > 0 ? `, ${waiting} tools to review` : ''}`}>
      <h1>Sources</h1>
      {props.canAdd ? (
        <p>
          <a href="sources/new">Add a source</a>
        </p>
      ) : null}
      {sources.length === 0 ? (
        <p>This hub has no sources yet. Add one, and its tools are listed here for you to review.</p>
      ) : (
        <p>
          {plural(sources.length, 'source', 'sources')}.{' '}
          {waiting === 0
            ? 'Every tool is as you approved it.'
            : `${plural(waiting, 'tool waits', 'tools wait')} for your review, and ${waiting === 1 ? 'asks' : 'ask'} before each call until then.`}
        </p>
      )}
      {sources.map((summary) => {
        const ns = summary.source.namespace;
        const heading = `source-${ns}`;
        return (
          <section class="call" aria-labelledby={heading}>
            <h2 id={heading}>
              <a href={`sources/${encodeURIComponent(ns)}`}>{line(ns)}</a>
            </h2>
            <SourceFacts summary={summary} />
            <p>
              {summary.toReview === 0 ? (
                'Nothing waits for review.'
              ) : (
                <a href={`sources/${encodeURIComponent(ns)}`}>
                  Review {plural(summary.toReview, 'tool', 'tools')} of {line(ns)}
                </a>
              )}
            </p>
          </section>
        );
      })}
      {props.removed && props.removed.length > 0 ? (
        <>
          <h2>Removed</h2>
          <ul>
            {props.removed.map((event) => (
              <li>
                {line(event.namespace)}: {utc(event.at)}, {line(event.who)}: {line(changeText(event))}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Layout>
  );
}
