/**
 * Kinds of service: what a source is for (team chat, an issue tracker, a CRM…), so a request in
 * everyday words ("let the team know", "a customer") leans toward the sources of that kind, and an
 * answer that finds nothing close can say what each source is for.
 *
 * The kinds are the categories public directories of MCP servers and apps sort them into (the
 * server categories of the awesome-mcp-servers list: Communication, Version Control, Databases,
 * File Systems, Browser Automation, Search & Data Extraction, Location Services, Knowledge &
 * Memory, Monitoring, Cloud Platforms, Customer Data Platforms, Developer Tools, Support & Service
 * Management), with email and calendar from the same lists' Communication and productivity
 * entries. Each kind has two word lists:
 *
 * - `marks`: words a service of the kind uses for its own tools (its objects and its name), which
 *   decide the kinds of a source from its tool names and first sentences (`kindsOf`);
 * - `asks`: words a person uses for the kind, its objects or what they want from it, general and
 *   never written for one query or one server.
 *
 * Both lists are stemmed with the index's own tokenizer, so `channels` and `channel` are one word.
 */
import { termOf, tokens } from './tokenize.ts';

/** One kind of service. */
export interface ServiceKind {
  /** Short, plain words for the kind, as an answer shows it ("team chat"). */
  label: string;
  /** Words its tools use for themselves. */
  marks: readonly string[];
  /** Words people use for it. */
  asks: readonly string[];
}

export const SERVICE_KINDS: readonly ServiceKind[] = [
  {
    label: 'team chat',
    marks: ['channel', 'message', 'thread', 'reaction', 'chat', 'slack', 'teams', 'discord'],
    asks: [
      'team',
      'chat',
      'channel',
      'room',
      'conversation',
      'discussion',
      'thread',
      'tell',
      'hear',
      'announce',
      'ping',
      'colleague',
      'coworker',
      'everyone',
      'said',
      'reply',
      'dm',
    ],
  },
  {
    label: 'email',
    marks: ['email', 'mail', 'inbox', 'gmail', 'outlook'],
    asks: ['email', 'mail', 'inbox', 'newsletter', 'unread'],
  },
  {
    label: 'calendar',
    marks: ['calendar', 'meeting', 'appointment', 'availability'],
    asks: ['calendar', 'meeting', 'schedule', 'appointment', 'availability', 'free', 'busy', 'tomorrow'],
  },
  {
    label: 'issue tracker',
    marks: ['issue', 'ticket', 'sprint', 'milestone', 'iteration', 'backlog', 'epic', 'jira', 'linear'],
    asks: [
      'ticket',
      'bug',
      'task',
      'sprint',
      'backlog',
      'assign',
      'assignee',
      'blocking',
      'blocker',
      'roadmap',
      'triage',
      'priority',
      'todo',
    ],
  },
  {
    label: 'code host',
    marks: [
      'repository',
      'repo',
      'branch',
      'commit',
      'merge',
      'pull',
      'fork',
      'github',
      'gitlab',
      'bitbucket',
    ],
    asks: [
      'code',
      'repo',
      'branch',
      'commit',
      'merge',
      'pr',
      'reviewer',
      'ship',
      'readme',
      'author',
      'push',
      'codebase',
      'hotfix',
    ],
  },
  {
    label: 'CRM',
    marks: ['contact', 'deal', 'company', 'lead', 'crm', 'hubspot', 'salesforce', 'engagement'],
    asks: [
      'customer',
      'client',
      'lead',
      'deal',
      'prospect',
      'account',
      'sales',
      'crm',
      'revenue',
      'vendor',
      'partner',
      'buyer',
    ],
  },
  {
    label: 'documents and wiki',
    marks: ['block', 'wiki', 'notion', 'confluence'],
    asks: [
      'doc',
      'document',
      'page',
      'wiki',
      'note',
      'spec',
      'writeup',
      'knowledge',
      'handbook',
      'meeting notes',
    ],
  },
  {
    label: 'files',
    marks: ['directory', 'folder', 'filesystem', 'drive', 'dropbox'],
    asks: ['file', 'folder', 'disk', 'local', 'directory', 'readme', 'config', 'attachment'],
  },
  {
    label: 'database',
    marks: [
      'database',
      'table',
      'collection',
      'sql',
      'schema',
      'postgres',
      'mongodb',
      'mysql',
      'index',
      'aggregate',
    ],
    asks: ['table', 'row', 'record', 'database', 'db', 'sql', 'collection', 'column', 'catalog'],
  },
  {
    label: 'error tracker',
    marks: ['error', 'exception', 'crash', 'sentry', 'trace', 'dsn', 'event'],
    asks: [
      'crash',
      'crashing',
      'error',
      'broken',
      'exception',
      'production',
      'failing',
      'incident',
      'outage',
      'regression',
      'stack',
    ],
  },
  {
    label: 'browser',
    marks: [
      'browser',
      'click',
      'navigate',
      'screenshot',
      'snapshot',
      'tab',
      'playwright',
      'puppeteer',
      'dialog',
    ],
    asks: ['click', 'press', 'button', 'form', 'login', 'tab', 'browser', 'screen', 'scroll', 'phone'],
  },
  {
    label: 'web search and scraping',
    marks: ['web', 'crawl', 'scrape', 'website', 'brave', 'tavily', 'exa', 'firecrawl'],
    asks: [
      'online',
      'web',
      'internet',
      'latest',
      'news',
      'research',
      'article',
      'site',
      'website',
      'google',
      'paper',
    ],
  },
  {
    label: 'maps and places',
    marks: ['place', 'direction', 'geocode', 'distance', 'elevation', 'location', 'google maps'],
    asks: [
      'drive',
      'train',
      'walk',
      'far',
      'distance',
      'near',
      'nearby',
      'address',
      'route',
      'travel',
      'restaurant',
      'airport',
      'city',
      'street',
    ],
  },
  {
    label: 'memory',
    marks: ['entity', 'relation', 'observation', 'graph', 'memory', 'knowledge'],
    asks: ['remember', 'forget', 'recall', 'know', 'fact', 'prefer', 'preference'],
  },
  {
    label: 'cluster',
    marks: ['pod', 'deployment', 'cluster', 'kubectl', 'helm', 'kubernetes', 'container'],
    asks: [
      'cluster',
      'pod',
      'deploy',
      'deployment',
      'container',
      'staging',
      'scale',
      'rollout',
      'replica',
      'workload',
      'restart',
      'server',
    ],
  },
  {
    label: 'design files',
    marks: ['figma', 'design', 'frame', 'component', 'sketch'],
    asks: ['design', 'mockup', 'figma', 'icon', 'asset', 'prototype', 'wireframe'],
  },
  {
    label: 'library docs',
    marks: ['library', 'documentation', 'docs', 'framework', 'package', 'context7'],
    asks: ['docs', 'documentation', 'library', 'framework', 'sdk', 'package', 'example'],
  },
];

/**
 * A stemmed word list: each entry's terms (a phrase gives several, all of which must be there).
 * Every word must be one the index keeps: a stopword in a phrase would silently widen it (`get to`
 * would be `get`), so it throws.
 */
function stemmed(words: readonly string[]): string[][] {
  return words.map((phrase) => {
    const found = tokens(phrase).map((token) => termOf(token.whole));
    const terms = found.filter((term) => term !== undefined);
    if (terms.length !== found.length || terms.length === 0) {
      throw new Error(`service kinds: "${phrase}" has a word search never keeps (a stopword or a number)`);
    }
    return terms;
  });
}

/** The kinds with their words as stems, in SERVICE_KINDS order (a kind is its index). */
export const KIND_TERMS = SERVICE_KINDS.map((kind) => ({
  label: kind.label,
  marks: stemmed(kind.marks),
  asks: stemmed(kind.asks),
}));

/** Share of a source's tools whose names and first sentences carry a kind's mark to give it the kind. */
const MARKED_SHARE = 0.2;

/**
 * The kinds of one source, from its tools' own words: a kind whose marks name the source (its
 * namespace or server name), or that at least MARKED_SHARE of its tools carry in their name or
 * first sentence. `tools` holds each tool's terms of those fields; `names`, the source's.
 */
export function kindsOf(tools: readonly ReadonlySet<string>[], names: ReadonlySet<string>): number[] {
  const kinds: number[] = [];
  KIND_TERMS.forEach(({ marks }, kind) => {
    const carries = (terms: ReadonlySet<string>) =>
      marks.some((mark) => mark.every((term) => terms.has(term)));
    if (carries(names)) kinds.push(kind);
    else if (tools.length > 0 && tools.filter(carries).length / tools.length >= MARKED_SHARE)
      kinds.push(kind);
  });
  return kinds;
}

/**
 * How much a query asks for each kind: 1 for a kind it asks for in a person's words (`asks`),
 * `markShare` for one it names only by the objects its tools hold (`marks`); absent, not at all.
 */
export function kindsAsked(queryTerms: ReadonlySet<string>, markShare: number): Map<number, number> {
  const kinds = new Map<number, number>();
  const said = (phrase: readonly string[]) => phrase.every((term) => queryTerms.has(term));
  KIND_TERMS.forEach(({ asks, marks }, kind) => {
    if (asks.some(said)) kinds.set(kind, 1);
    else if (markShare > 0 && marks.some(said)) kinds.set(kind, markShare);
  });
  return kinds;
}
