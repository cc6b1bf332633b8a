/**
 * search and describe as the hub answers them: the 24 corpus sources stored like added sources
 * (reviewed, rules pinned), policy deciding `[asks]` and hidden tools, connections in headers,
 * and the index following the store as sources change.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Lookup } from '../../engine/lookup.ts';
import { reviewItem } from '../../engine/sources/review.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { corpusManifests } from '../corpus.ts';
import { hubHome } from './cli-process.ts';

let local: LocalStore;
let remove: () => void;

beforeEach(async () => {
  const temp = hubHome();
  remove = temp.remove;
  local = openLocalStore(join(temp.home, 'hub.db'), 0);
  const store = local.store;
  let n = 0;
  for (const manifest of await corpusManifests()) {
    store.addSource({
      kind: 'mcp-http',
      namespace: manifest.namespace,
      url: `https://${manifest.namespace}.example/mcp`,
      allowedHosts: [`${manifest.namespace}.example`],
      addedAt: 0,
      updatedAt: 0,
    });
    store.putManifest(manifest);
    for (const tool of manifest.tools) {
      const item = reviewItem(tool);
      store.addPolicyRule({
        id: `r${++n}`,
        target: { kind: 'tool', address: tool.address },
        effect: item.proposed,
        contract: tool.contract,
        createdAt: 0,
      });
      store.putReview({
        address: tool.address,
        namespace: manifest.namespace,
        contract: tool.contract,
        tool,
        reviewedAt: 0,
      });
    }
  }
  store.putConnection({ namespace: 'github', name: 'personal', isDefault: true, secrets: [], createdAt: 0 });
  store.putConnection({ namespace: 'github', name: 'work', isDefault: false, secrets: [], createdAt: 0 });
});
afterEach(() => {
  local.close();
  remove();
});

describe('search over the hub', () => {
  it('answers in the spec shape: namespace with connections, signature, [asks], first sentence', () => {
    const answer = new Lookup(local.store, localWording).search({ query: 'create a GitHub issue', limit: 2 });
    const lines = answer.split('\n');
    expect(lines[0]).toBe('github  (connections: personal*, work)');
    expect(lines[1]).toMatch(
      /^ {2}github\.create_issue\(input: \{ owner: string; repo: string; title: string;.*\): Promise<.*> {3}\[asks\]$/,
    );
    expect(lines[2]).toBe('    Create a new issue in a GitHub repository');
    expect(lines.at(-1)).toMatch(/^\d+ more matches\. Narrow the query or pass namespace\.$/);
  });

  it('shows a read-only tool without [asks]', () => {
    const answer = new Lookup(local.store, localWording).search({
      query: 'read the knowledge graph',
      namespace: 'memory',
      limit: 1,
    });
    expect(answer.split('\n')[1]).toMatch(/^ {2}memory\.read_graph\(.*\)(?!.*\[asks\])/);
  });

  it('hides tools the policy denies and counts them', () => {
    local.store.addPolicyRule({
      id: 'deny-gh',
      target: { kind: 'source', namespace: 'github' },
      effect: 'deny',
      createdAt: 1,
    });
    const answer = new Lookup(local.store, localWording).search({
      query: 'create a GitHub issue',
      namespace: 'github',
    });
    expect(answer).not.toContain('github.create_issue');
    expect(answer).toMatch(/\d+ tools? hidden by your policy\./);
  });

  it('follows the store: a removed source leaves the index, a refreshed one is re-read', () => {
    const lookup = new Lookup(local.store, localWording);
    expect(lookup.search({ query: 'post a message to slack', limit: 1 })).toContain(
      'slack.slack_post_message',
    );
    local.store.removeSource('slack');
    expect(lookup.search({ query: 'post a message to slack', limit: 1 })).not.toContain('slack.');
    const memory = local.store.getManifest('memory');
    if (!memory) throw new Error('memory is missing');
    const renamed = memory.tools.map((tool) =>
      tool.name === 'read_graph' ? { ...tool, description: 'Summon the entire zeppelin archive.' } : tool,
    );
    local.store.putManifest({ ...memory, fetchedAt: 5, tools: renamed });
    expect(lookup.search({ query: 'zeppelin archive', limit: 1 })).toContain('memory.read_graph');
  });

  it('refuses bad input clearly', () => {
    const lookup = new Lookup(local.store, localWording);
    expect(() => lookup.search({ query: 'x'.repeat(201) })).toThrow(/200/);
    expect(() => lookup.search({ query: 'x', limit: 0 })).toThrow();
    expect(() => lookup.search({ query: 'x', limit: 26 })).toThrow();
    expect(() => lookup.search({ query: 'x', namespace: 'githib' })).toThrow(/github/);
  });
});

describe('describe over the hub', () => {
  it('declares a tool by address, with CallOptions', () => {
    const text = new Lookup(local.store, localWording).describe(['github.create_issue']);
    expect(text).toContain('declare const github: {');
    expect(text).toContain('create_issue(input: {');
    expect(text).toContain('options?: CallOptions');
    expect(text).toContain('interface CallOptions');
  });

  it('names the closest addresses for an unknown one', () => {
    expect(() => new Lookup(local.store, localWording).describe(['github.create_isue'])).toThrow(
      /github\.create_issue/,
    );
  });

  it('declares the hub helpers, hub.read and its handle, for "hub" alone or beside a tool', () => {
    const lookup = new Lookup(local.store, localWording);
    const alone = lookup.describe(['hub.read']);
    expect(alone).toContain('declare const hub: {');
    expect(alone).toContain(
      'read(handle: ResultHandle | string, options: { path: string }): Promise<unknown>;',
    );
    expect(alone).toContain('interface ResultHandle');
    const both = lookup.describe(['hub', 'github.create_issue']);
    expect(both).toContain('declare const hub: {');
    expect(both).toContain('declare const github: {');
  });
});
