/**
 * The `search` tool's plain-text answer (engine/search/search.ts, render.ts), as exact strings so
 * they double as documentation of what a model reads (spec: The MCP surface, search), and its
 * input errors.
 */
import { describe, expect, it } from 'vitest';
import type { Connection } from '../../engine/contracts/connections.ts';
import type { PolicyEffect } from '../../engine/contracts/policy.ts';
import type { Manifest, ManifestTool } from '../../engine/contracts/sources.ts';
import { HubError } from '../../engine/errors.ts';
import { type SearchDeps, SearchIndex, search } from '../../engine/search/index.ts';
import { localWording } from '../../local/wording.ts';

function tool(address: string, description?: string, properties: Record<string, string> = {}): ManifestTool {
  const entry: ManifestTool = {
    address,
    name: address.slice(address.indexOf('.') + 1),
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(properties).map(([k, d]) => [k, { type: 'string', description: d }]),
      ),
    },
    contract: '0'.repeat(64),
  };
  if (description !== undefined) entry.description = description;
  return entry;
}

function manifest(namespace: string, tools: ManifestTool[]): Manifest {
  return { namespace, fetchedAt: 0, tools };
}

function connection(namespace: string, name: string, isDefault = false): Connection {
  return { namespace, name, isDefault, secrets: [], createdAt: 0 };
}

/** The spec page's signatures where it shows one; a short stand-in for the rest. */
const SIGNATURES: Record<string, string> = {
  'github.createIssue':
    'github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<Issue>',
  'github.searchIssues':
    'github.searchIssues(input: { q: string; perPage?: number; page?: number }): Promise<IssueSearchResult>',
};

function deps(
  options: { effects?: Record<string, PolicyEffect>; connections?: Connection[]; sources?: string[] } = {},
): SearchDeps {
  return {
    sources: () => options.sources ?? [],
    signatureOf: (t) => SIGNATURES[t.address] ?? `${t.address}(input: {}): Promise<unknown>`,
    effectOf: (t) => options.effects?.[t.address] ?? 'allow',
    connectionsOf: (namespace) => (options.connections ?? []).filter((c) => c.namespace === namespace),
    wording: localWording,
  };
}

const github = manifest('github', [
  tool('github.createIssue', 'Create an issue in a repository. You need push access to the repository.', {
    title: 'Title of the new issue.',
  }),
  tool('github.searchIssues', 'Search issues and pull requests.\nUses GitHub search syntax.', {
    q: 'Query.',
  }),
  tool('github.addLabels', 'Add labels to an issue or a pull request.'),
  tool('github.lockThread', 'Lock the conversation of an issue.'),
  tool('github.listMilestones', 'List the milestones of a repository, which group issues.'),
  tool('github.getRepo', 'Get a repository.'),
]);
const slack = manifest('slack', [
  tool('slack.postMessage', 'Post a message to a channel, e.g. #general. Returns its timestamp.'),
  tool('slack.getChannelHistory', 'Get recent messages in a channel.'),
  tool('slack.reactToIssueMessage'),
]);
const index = SearchIndex.build([github, slack]);
const githubConnections = [connection('github', 'work'), connection('github', 'personal', true)];

describe('search: the answer to a query', () => {
  it('reads as the spec shows: header with connections, [asks], first sentence, more matches', () => {
    const answer = search(
      index,
      { query: 'issues', namespace: 'github', limit: 2 },
      deps({ effects: { 'github.createIssue': 'ask' }, connections: githubConnections }),
    );
    expect(answer).toBe(
      [
        'github  (connections: personal*, work)',
        '  github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<Issue>   [asks]',
        '    Create an issue in a repository.',
        '  github.searchIssues(input: { q: string; perPage?: number; page?: number }): Promise<IssueSearchResult>',
        '    Search issues and pull requests.',
        '3 more matches. Narrow the query.',
      ].join('\n'),
    );
  });

  it('groups by namespace in the order of each group’s best hit, hits in rank order within', () => {
    // Ranked: github.searchIssues, slack ×3, github.lockThread ("conversation" of an issue: the
    // outcome vocabulary groups it with messages); github's group comes first whole.
    const answer = search(index, { query: 'search messages and issues', limit: 5 }, deps());
    expect(answer).toBe(
      [
        'github',
        '  github.searchIssues(input: { q: string; perPage?: number; page?: number }): Promise<IssueSearchResult>',
        '    Search issues and pull requests.',
        '  github.lockThread(input: {}): Promise<unknown>',
        '    Lock the conversation of an issue.',
        'slack',
        '  slack.reactToIssueMessage(input: {}): Promise<unknown>',
        '  slack.postMessage(input: {}): Promise<unknown>',
        '    Post a message to a channel, e.g. #general.',
        '  slack.getChannelHistory(input: {}): Promise<unknown>',
        '    Get recent messages in a channel.',
        '3 more matches. Narrow the query or pass namespace.',
      ].join('\n'),
    );
  });

  it('hides what the policy denies, and says how many it hid', () => {
    const answer = search(
      index,
      { query: 'issue', limit: 25 },
      deps({
        effects: { 'github.lockThread': 'deny', 'github.addLabels': 'deny', 'github.getRepo': 'deny' },
      }),
    );
    expect(answer).not.toContain('lockThread');
    expect(answer).not.toContain('addLabels');
    expect(answer.split('\n').at(-1)).toBe('2 tools hidden by your policy.');
  });

  it('says one match and one tool in the singular', () => {
    const answer = search(
      index,
      { query: 'issue', namespace: 'github', limit: 1 },
      deps({ effects: { 'github.addLabels': 'deny' } }),
    );
    expect(answer.split('\n').slice(-2)).toEqual([
      '3 more matches. Narrow the query.',
      '1 tool hidden by your policy.',
    ]);
    const one = search(index, { query: 'pull request', limit: 1 }, deps());
    expect(one.split('\n').at(-1)).toBe('1 more match. Narrow the query or pass namespace.');
  });

  it('never searches connection names', () => {
    const answer = search(index, { query: 'personal' }, deps({ connections: githubConnections }));
    const [first, next, ...overview] = answer.split('\n');
    expect(first).toBe('No tools match "personal".');
    expect(next).toBe(
      'What each source is for: search again with the action and its words, or pass namespace.',
    );
    expect(overview.map((line) => line.trim().split(' ')[0])).toEqual(['github', 'slack']);
    expect(answer).not.toContain('(input');
  });

  it('names at most 30 namespaces when nothing matches', () => {
    const many = SearchIndex.build(
      Array.from({ length: 32 }, (_, i) => manifest(`source_${String(i).padStart(2, '0')}`, [])),
    );
    // Sources with no tools have nothing to say what they are for: the answer names them.
    expect(search(many, { query: 'anything' }, deps())).toMatch(/source_29 and 2 more\.$/);
  });

  it('says where to look when nothing in the namespace matches', () => {
    expect(search(index, { query: 'kubernetes pods', namespace: 'slack' }, deps())).toBe(
      'No tools in slack match "kubernetes pods". Search without namespace, or pass an empty query to list slack.',
    );
  });
});

describe('search: listing with an empty query', () => {
  it('lists a namespace in manifest order, up to the limit', () => {
    const answer = search(
      index,
      { namespace: 'github', limit: 3 },
      deps({ effects: { 'github.searchIssues': 'deny' }, connections: githubConnections }),
    );
    expect(answer).toBe(
      [
        'github  (connections: personal*, work)',
        '  github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<Issue>',
        '    Create an issue in a repository.',
        '  github.addLabels(input: {}): Promise<unknown>',
        '    Add labels to an issue or a pull request.',
        '  github.lockThread(input: {}): Promise<unknown>',
        '    Lock the conversation of an issue.',
        '2 more tools. Add a query to find the one you need, or raise limit (up to 25).',
        '1 tool hidden by your policy.',
      ].join('\n'),
    );
  });

  it('lists the namespaces with their tool counts and connections when no namespace is given', () => {
    const answer = search(
      index,
      { query: '  ' },
      deps({ effects: { 'slack.postMessage': 'deny' }, connections: githubConnections }),
    );
    expect(answer).toBe(
      [
        'github  6 tools  (connections: personal*, work)',
        'slack  2 tools',
        'Pass namespace with an empty query to list its tools, or a query to search them all.',
        '1 tool hidden by your policy.',
      ].join('\n'),
    );
  });

  it('says how to add a source when the hub has none, whatever the search', () => {
    const empty =
      'No tools yet: this hub has no sources. Ask the user to add one with `capabilities hub add <ref>`, ' +
      'or import the servers their agents already use with `capabilities hub import`.';
    expect(search(SearchIndex.build([]), {}, deps())).toBe(empty);
    // Not "No tools match": the model learns the hub is empty, not that its words missed.
    expect(search(SearchIndex.build([]), { query: 'remember a fact' }, deps())).toBe(empty);
    expect(search(SearchIndex.build([]), { query: '', namespace: 'github' }, deps())).toBe(empty);
  });

  it('a hub whose sources have no tool list yet is not empty: it names them and how to read their tools again', () => {
    // What `hub import` leaves of servers that failed to start: sources without a tool list.
    expect(search(SearchIndex.build([]), { query: 'issues' }, deps({ sources: ['github', 'mem'] }))).toBe(
      "No tools yet: this hub's sources (github, mem) have no tool list yet. Ask the user to fix what stops each and " +
        'run `capabilities hub refresh github`, then run `capabilities hub refresh mem`.',
    );
  });
});

describe('search: input errors', () => {
  const fails = (input: unknown) => {
    try {
      search(index, input, deps());
    } catch (error) {
      expect(error).toBeInstanceOf(HubError);
      return { code: (error as HubError).code, message: (error as HubError).message };
    }
    throw new Error('search did not fail');
  };

  it.each([
    [
      { query: 'x'.repeat(201) },
      'search: query is at most 200 characters; got a 201-character string. Say what you want to do in a few words.',
    ],
    [{ query: 'a', limit: 0 }, 'search: limit is a whole number from 1 to 25; got 0.'],
    [{ query: 'a', limit: 26 }, 'search: limit is a whole number from 1 to 25; got 26.'],
    [{ query: 'a', limit: 2.5 }, 'search: limit is a whole number from 1 to 25; got 2.5.'],
    [{ query: 'a', limit: '3' }, 'search: limit must be a number; got "3".'],
    [{ query: 42 }, 'search: query must be a string; got 42.'],
    [
      { query: 42, limit: 0 },
      'search: query must be a string; got 42; limit is a whole number from 1 to 25; got 0.',
    ],
    ['issues', 'search: the input is an object such as { "query": "create an issue" }.'],
  ])('%j is invalid_input', (input, message) => {
    expect(fails(input)).toEqual({ code: 'invalid_input', message });
  });

  it('accepts a query of exactly 200 characters and limits of 1 and 25', () => {
    expect(() => search(index, { query: 'x'.repeat(200), limit: 1 }, deps())).not.toThrow();
    expect(() => search(index, { query: 'issue', limit: 25 }, deps())).not.toThrow();
  });

  it('names the closest namespaces for an unknown one', () => {
    expect(fails({ query: 'issue', namespace: 'GitHub' })).toEqual({
      code: 'not_found',
      message: 'search: no namespace "GitHub". Did you mean "github"?',
    });
    expect(fails({ query: 'issue', namespace: 'zzzzzzzzzzzz' })).toEqual({
      code: 'not_found',
      message: 'search: no namespace "zzzzzzzzzzzz". Namespaces: github, slack.',
    });
  });
});
