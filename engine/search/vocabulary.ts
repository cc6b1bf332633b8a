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

/**
 * Words people use when they ask for an outcome rather than an action ("let the team know", "what
 * changed", "where exactly is"), grouped with the action and object words tools describe
 * themselves with. Same rules as SYNONYM_GROUPS: general, symmetric, none written for one tool.
 */
export const OUTCOME_GROUPS: readonly (readonly string[])[] = [
  ['notify', 'tell', 'inform', 'announce', 'alert', 'ping', 'hear', 'know'],
  ['message', 'conversation', 'chat', 'slack'],
  ['channel', 'room'],
  ['review', 'reviewer', 'feedback', 'approve', 'approval'],
  ['iteration', 'sprint', 'milestone', 'cycle'],
  ['contact', 'lead', 'customer', 'prospect', 'deal', 'crm'],
  ['commit', 'change', 'changed', 'history', 'diff'],
  ['address', 'street', 'location', 'coordinate', 'place', 'geocode'],
  ['direction', 'route', 'travel', 'drive', 'train', 'walk', 'way'],
  ['table', 'collection', 'column'],
  ['click', 'press', 'tap', 'button', 'submit'],
  ['navigate', 'go', 'visit', 'open'],
  ['attach', 'upload'],
  ['resize', 'phone', 'mobile', 'viewport', 'screen'],
  ['dialog', 'popup', 'prompt', 'confirm'],
  ['aggregate', 'total', 'sum', 'count', 'group', 'plus', 'many'],
  ['context', 'switch', 'cluster'],
  ['workflow', 'automation'],
  ['delete', 'forget', 'rid'],
  ['save', 'remember', 'keep', 'track'],
  ['comment', 'feedback', 'remark'],
  ['tree', 'layout', 'structure', 'hierarchy'],
  ['label', 'tag'],
  ['status', 'state', 'progress'],
  ['log', 'logs', 'output', 'wrong'],
  ['reaction', 'emoji', 'thumbs'],
  ['documentation', 'library', 'framework', 'package', 'api', 'guide'],
  ['screenshot', 'look', 'appearance'],
  ['scale', 'traffic', 'replica', 'capacity'],
  ['rollout', 'rollback', 'previous', 'revert', 'undo'],
  ['pod', 'container', 'shell', 'workload'],
  ['news', 'latest', 'online', 'web'],
  ['think', 'reason', 'thought', 'puzzle'],
  ['slow', 'faster', 'speed', 'performance', 'optimize', 'index', 'explain'],
  ['member', 'access', 'permission', 'role'],
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

/** The default table, from SYNONYM_GROUPS and OUTCOME_GROUPS. */
export const SYNONYMS: ReadonlyMap<string, readonly Expansion[]> = synonymTable([
  ...SYNONYM_GROUPS,
  ...OUTCOME_GROUPS,
]);
