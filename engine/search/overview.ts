/**
 * What each source is for, one line each, for an answer that found nothing close: the model's
 * next query can then use the source's own words.
 *
 *   slack  team chat: get, add, list, post, channel, thread, users, history, message, profile (8 tools)
 *   context7  library docs: get, query, docs, id, library (2 tools) — its server says: "Use this …"
 *
 * A line is the namespace, its kinds of service (service-kinds.ts), the words its tools' names use
 * most (a few verbs, then what they act on; the source's own name left out) and its number of
 * tools, all from the tools the answer may show; then the first sentence of its server's
 * instructions, quoted as the server's. Sources whose tools are all hidden are left out, and not
 * counted; at most MAX_SOURCES lines, each at most MAX_LINE characters.
 */
import { inertLine } from '../inert.ts';
import type { IndexedDocument } from './document.ts';
import { firstSentence } from './first-sentence.ts';
import { isVerb } from './reads.ts';
import type { SearchIndex } from './search-index.ts';
import { kindsOf, SERVICE_KINDS } from './service-kinds.ts';
import { termOf, terms, words } from './tokenize.ts';

const MAX_SOURCES = 30;
const MAX_LINE = 200;
/** Words of tool names shown per source: verbs, then the rest. */
const VERB_WORDS = 4;
const NAME_WORDS = 6;
/** Longest piece of the server's instructions shown. */
const MAX_ABOUT = 90;

/** The overview's lines; `aboutOf` gives a source's instructions, when it has any. */
export function sourceOverview(
  index: SearchIndex,
  visible: (doc: IndexedDocument) => boolean,
  aboutOf: (namespace: string) => string | undefined,
): string[] {
  const shown: { namespace: string; docs: IndexedDocument[] }[] = [];
  for (const namespace of index.namespaces()) {
    const docs = index.documents(namespace).filter(visible);
    if (docs.length > 0) shown.push({ namespace, docs });
  }
  const lines = shown
    .slice(0, MAX_SOURCES)
    .map(({ namespace, docs }) => sourceLine(index, namespace, docs, aboutOf));
  if (shown.length > MAX_SOURCES) {
    lines.push(`  and ${shown.length - MAX_SOURCES} more: pass namespace with an empty query to list one.`);
  }
  return lines;
}

/**
 * One source's line, from its visible tools alone: a kind only hidden tools carry is not shown,
 * nor are their words. The server's own sentence is quoted as its, and made inert.
 */
function sourceLine(
  index: SearchIndex,
  namespace: string,
  docs: readonly IndexedDocument[],
  aboutOf: (namespace: string) => string | undefined,
): string {
  const tools = docs.map((doc) => new Set([...terms(doc.name), ...terms(doc.summary)]));
  const kinds = kindsOf(tools, index.traits(namespace).names)
    .map((kind) => SERVICE_KINDS[kind]?.label)
    .filter((label) => label !== undefined);
  const common = commonWords(docs, new Set(words(namespace)));
  const what = [kinds.join(', '), common.join(', ')].filter((part) => part !== '').join(': ');
  const about = inertLine(firstSentence(aboutOf(namespace) ?? '', MAX_ABOUT));
  const count = `(${docs.length} ${docs.length === 1 ? 'tool' : 'tools'})`;
  const line = `  ${namespace}  ${[what, count].filter((part) => part !== '').join(' ')}${about === '' ? '' : ` — its server says: "${about}"`}`;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

/**
 * The words the tools' names use most (one per stem), the source's own name left out: the
 * verbs first (what can be done), then the other words (what it is done to).
 */
function commonWords(docs: readonly IndexedDocument[], own: ReadonlySet<string>): string[] {
  const verbs = new Map<string, { word: string; count: number }>();
  const objects = new Map<string, { word: string; count: number }>();
  for (const doc of docs) {
    const seen = new Set<string>();
    for (const word of words(doc.name)) {
      const term = termOf(word);
      if (term === undefined || own.has(word) || seen.has(term)) continue;
      seen.add(term);
      const counts = isVerb(word) ? verbs : objects;
      const entry = counts.get(term);
      if (entry === undefined) counts.set(term, { word, count: 1 });
      else entry.count++;
    }
  }
  const top = (counts: Map<string, { word: string; count: number }>, n: number) =>
    [...counts.values()]
      .sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : 1))
      .slice(0, n)
      .map(({ word }) => word);
  return [...top(verbs, VERB_WORDS), ...top(objects, NAME_WORDS)];
}
