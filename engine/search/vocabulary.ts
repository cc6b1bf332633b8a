/**
 * Words models use for the same thing: "remove" for delete, "find" for search, "repo" for
 * repository. A query is expanded with the other words of each group it touches, at a lower
 * weight than its own words (ranking.ts), so an exact word still wins and a paraphrase still
 * finds the tool.
 *
 * The groups name general actions and the objects tools commonly act on; none is written for
 * one tool or one query. A phrase (`pull request`) expands to each of its words, and only a
 * single word triggers a group.
 *
 * Invariants: expansion is symmetric within a group (every word of a group expands to all the
 * others; a word in two groups, like `open` an issue and `open` a file, expands to both) and
 * works on stems, so `deleting` reaches `remove` as `delete` does.
 */
import { termOf, tokens } from './tokenize.ts';

/** Groups of words used for the same action or object. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // actions
  ['create', 'new', 'add', 'make', 'insert', 'generate', 'open'],
  ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'discard'],
  ['list', 'enumerate', 'all', 'browse'],
  ['send', 'post', 'publish', 'share', 'notify'],
  ['get', 'fetch', 'read', 'retrieve', 'load', 'view', 'show', 'open'],
  ['search', 'find', 'query', 'lookup', 'seek', 'locate', 'discover'],
  ['update', 'edit', 'modify', 'change', 'patch', 'alter', 'set'],
  ['run', 'execute', 'exec', 'invoke', 'trigger', 'perform', 'call'],
  ['stop', 'cancel', 'kill', 'terminate', 'abort', 'halt'],
  ['reply', 'respond', 'answer'],
  ['save', 'store', 'persist', 'write', 'record'],
  ['rename', 'move'],
  ['download', 'export'],
  ['upload', 'import'],
  ['copy', 'duplicate', 'clone', 'fork'],
  // objects
  ['issue', 'ticket', 'bug'],
  ['comment', 'note'],
  ['message', 'chat', 'dm'],
  ['repository', 'repo'],
  ['directory', 'folder', 'dir'],
  ['user', 'member', 'person', 'people'],
  ['picture', 'image', 'photo'],
  ['website', 'site', 'webpage'],
  ['url', 'link'],
  ['error', 'exception', 'crash', 'failure'],
  ['email', 'mail'],
  ['configuration', 'config', 'setting'],
  ['documentation', 'docs'],
  ['database', 'db'],
  ['organization', 'org'],
  ['information', 'info', 'detail'],
  ['kubernetes', 'k8s'],
  ['pull request', 'pr'],
  ['merge request', 'mr'],
];

/** One expansion term and the fraction of an exact match's weight it carries. */
export interface Expansion {
  term: string;
  /** 1 for a single-word synonym, shared among the words of a phrase. */
  share: number;
}

/** Builds the stem -> expansions table from groups; exported for tests and ablations. */
export function synonymTable(
  groups: readonly (readonly string[])[],
): ReadonlyMap<string, readonly Expansion[]> {
  const table = new Map<string, Expansion[]>();
  for (const group of groups) {
    const entries = group.map((phrase) => {
      // Each vocabulary word as one term, as written (`k8s`, not k and 8s).
      const stems = tokens(phrase)
        .map((token) => termOf(token.whole))
        .filter((term) => term !== undefined);
      return { stems, trigger: stems.length === 1 ? stems[0] : undefined };
    });
    for (const source of entries) {
      if (source.trigger === undefined) continue;
      const list = table.get(source.trigger) ?? [];
      for (const target of entries) {
        if (target === source) continue;
        for (const term of target.stems) {
          if (term !== source.trigger && !list.some((e) => e.term === term)) {
            list.push({ term, share: 1 / target.stems.length });
          }
        }
      }
      table.set(source.trigger, list);
    }
  }
  return table;
}

/** The default table, from SYNONYM_GROUPS. */
export const SYNONYMS: ReadonlyMap<string, readonly Expansion[]> = synonymTable(SYNONYM_GROUPS);
