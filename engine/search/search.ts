/**
 * The `search` tool (spec: The MCP surface, search): validates its input, asks the index, and
 * answers in plain text, best match first.
 *
 * - A query ranks the tools it matches (within `namespace` when given), at most `limit` of them,
 *   and says how many more matched: `3 more matches. Narrow the query or pass namespace.`
 * - An empty query with `namespace` lists that namespace's tools in manifest order; without
 *   `namespace` it lists the namespaces with their tool counts.
 * - Tools the policy denies are never shown and never ranked; a line counts the ones that would
 *   have been (`2 tools hidden by your policy.`).
 * - Skills rank with the tools by the same score (the index holds both), grouped under `skills`.
 * - An answer whose best hit is far from the query (closeness under CLOSE_ENOUGH; none at all is
 *   far too) says so after its hits and lists what each source is for (overview.ts), so the
 *   model's next query can use a source's own words; within `namespace` it says where else to look.
 * - An unknown namespace is HubError('not_found') naming the closest ones.
 * - A hub with no tool lists answers with the one empty-hub line (`emptyHub`) or what its sources
 *   lack (`noToolLists`), then any skills the query matches: the model learns why there are no
 *   tools and what the person does about it, not that nothing matched.
 */
import { closest } from '../closest.ts';
import type { PolicyEffect } from '../contracts/policy.ts';
import { HubError } from '../errors.ts';
import { emptyHub, noToolLists } from '../not-found.ts';
import type { IndexedDocument, ToolDocument } from './document.ts';
import { MAX_LIMIT, parseSearchInput } from './input.ts';
import { sourceOverview } from './overview.ts';
import { connectionsNote, count, namespaceHeader, renderGroups, type SearchDeps, spaced } from './render.ts';
import type { SearchIndex } from './search-index.ts';

/** Most namespaces one message names; a hub of hundreds would drown the answer. */
const NAMES_SHOWN = 30;
/**
 * Below this closeness (search-index.ts: how much of the query the best hit matches) nothing is
 * close: the answer says so and what each source is for. Measured on the development intents.
 */
export const CLOSE_ENOUGH = 0.25;

/** Answers one `search` call. Throws HubError `invalid_input` or `not_found`. */
export function search(index: SearchIndex, input: unknown, deps: SearchDeps): string {
  const { query, namespace, limit } = parseSearchInput(input);
  if (index.namespaces().length === 0) return withoutTools(index, query.trim(), namespace, limit, deps);
  if (namespace !== undefined && !index.has(namespace)) {
    throw unknownNamespace(namespace, index.namespaces());
  }
  // Each tool's effect is asked once per call, however often the answer needs it.
  const effects = new Map<string, PolicyEffect>();
  const effectOf = (doc: ToolDocument): PolicyEffect => {
    let effect = effects.get(doc.address);
    if (effect === undefined) {
      effect = deps.effectOf(doc);
      effects.set(doc.address, effect);
    }
    return effect;
  };
  // A skill the profile shows is in the index; the policy is about calls, which a skill is not.
  const visible = (doc: IndexedDocument) => doc.kind === 'skill' || effectOf(doc) !== 'deny';
  const text = query.trim();
  if (text === '') {
    return namespace === undefined
      ? listNamespaces(index, visible, deps)
      : listNamespace(index, namespace, limit, visible, effectOf, deps);
  }

  const { hits, total, excluded, closeness } = index.query(text, { namespace, limit, where: visible });
  // Far from every tool, across the hub: the few nearest, then what each source is for, so the
  // model's next query can use a source's own words.
  const far = namespace === undefined && closeness < CLOSE_ENOUGH;
  const shown = hits;
  const lines =
    shown.length > 0
      ? renderGroups(
          shown.map((hit) => hit.document),
          effectOf,
          deps,
        )
      : [noMatch(text, namespace)];
  if (total > shown.length && !far) {
    const more = total - shown.length;
    lines.push(
      `${count(more, 'more match', 'more matches')}. Narrow the query${namespace ? '' : ' or pass namespace'}.`,
    );
  }
  if (far) {
    const overview = sourceOverview(index, visible, deps.aboutOf ?? (() => undefined));
    const none = shown.length > 0 ? `None of these is close to ${JSON.stringify(text)}. ` : '';
    if (overview.length > 0) {
      lines.push(
        `${none}What each source is for: search again with the action and its words, or pass namespace.`,
      );
      lines.push(...overview);
    } else if (shown.length === 0) {
      lines.push(`Try other words, or list a namespace with an empty query: ${names(index.namespaces())}.`);
    }
  }
  return finish(lines, excluded);
}

/**
 * The answer of a hub with no tool lists: the empty-hub line or what its sources lack, and, for a
 * query without `namespace`, the skills it matches after it.
 */
function withoutTools(
  index: SearchIndex,
  text: string,
  namespace: string | undefined,
  limit: number,
  deps: SearchDeps,
): string {
  const sources = deps.sources();
  const none = sources.length === 0 ? emptyHub(deps.wording) : noToolLists(sources, deps.wording);
  if (index.skillCount === 0 || text === '' || namespace !== undefined) return none;
  const { hits, total } = index.query(text, { limit });
  const lines = renderGroups(
    hits.map((hit) => hit.document),
    () => 'allow',
    deps,
  );
  if (total > hits.length)
    lines.push(`${count(total - hits.length, 'more matching skill')}. Narrow the query.`);
  if (sources.length > 0) return [none, ...lines].join('\n');
  return lines.length > 0 ? lines.join('\n') : `No skills match ${JSON.stringify(text)}. Try other words.`;
}

function listNamespace(
  index: SearchIndex,
  namespace: string,
  limit: number,
  visible: (doc: IndexedDocument) => boolean,
  effectOf: (doc: ToolDocument) => PolicyEffect,
  deps: SearchDeps,
): string {
  const docs = index.documents(namespace);
  const shown = docs.filter(visible);
  const lines = renderGroups(shown.slice(0, limit), effectOf, deps);
  if (shown.length === 0) lines.push(namespaceHeader(namespace, deps.connectionsOf(namespace)));
  if (shown.length > limit) {
    lines.push(
      `${count(shown.length - limit, 'more tool')}. Add a query to find the one you need, or raise limit (up to ${MAX_LIMIT}).`,
    );
  }
  return finish(lines, docs.length - shown.length);
}

function listNamespaces(
  index: SearchIndex,
  visible: (doc: IndexedDocument) => boolean,
  deps: SearchDeps,
): string {
  const namespaces = index.namespaces();
  const lines: string[] = [];
  let hidden = 0;
  for (const namespace of namespaces) {
    const docs = index.documents(namespace);
    const shown = docs.filter(visible).length;
    hidden += docs.length - shown;
    if (shown === 0) continue;
    lines.push(spaced(namespace, count(shown, 'tool'), connectionsNote(deps.connectionsOf(namespace))));
  }
  lines.push('Pass namespace with an empty query to list its tools, or a query to search them all.');
  return finish(lines, hidden);
}

function noMatch(query: string, namespace: string | undefined): string {
  const quoted = JSON.stringify(query);
  if (namespace !== undefined) {
    return `No tools in ${namespace} match ${quoted}. Search without namespace, or pass an empty query to list ${namespace}.`;
  }
  return `No tools match ${quoted}.`;
}

/** Namespaces for a message: all of them, or the first NAMES_SHOWN and how many more. */
function names(namespaces: readonly string[]): string {
  if (namespaces.length <= NAMES_SHOWN) return namespaces.join(', ');
  return `${namespaces.slice(0, NAMES_SHOWN).join(', ')} and ${namespaces.length - NAMES_SHOWN} more`;
}

function finish(lines: string[], hidden: number): string {
  if (hidden > 0) lines.push(`${count(hidden, 'tool')} hidden by your policy.`);
  return lines.join('\n');
}

function unknownNamespace(namespace: string, namespaces: readonly string[]): HubError {
  const near = closest(namespace, namespaces);
  const hint =
    near.length > 0
      ? `Did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?`
      : `Namespaces: ${names(namespaces) || 'none yet'}.`;
  return new HubError('not_found', `search: no namespace ${JSON.stringify(namespace)}. ${hint}`);
}
