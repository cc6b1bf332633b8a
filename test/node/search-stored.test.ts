/**
 * The search documents the store keeps (engine/search/stored-documents.ts, issue #38): a new
 * process (a new Lookup over the same store) answers its first search from them without reading a
 * tool list, exactly as one that built its index from the tool lists; documents made from an
 * older manifest, by other code, or that do not read as documents are made again; a profile that
 * shows part of a namespace never reads or writes them for it.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../../engine/contracts/sources.ts';
import { Lookup } from '../../engine/lookup.ts';
import type { HubStore } from '../../engine/ports.ts';
import { ProfileView } from '../../engine/profiles/profile-view.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { corpusManifests } from '../corpus.ts';
import { storeSources } from '../stored-sources.ts';
import { hubHome } from './cli-process.ts';

let local: LocalStore;
let remove: () => void;
let manifests: Manifest[];

beforeEach(async () => {
  const temp = hubHome();
  remove = temp.remove;
  local = openLocalStore(join(temp.home, 'hub.db'), 0);
  manifests = await corpusManifests();
  storeSources(local.store, manifests);
});
afterEach(() => {
  local.close();
  remove();
});

/** The store, counting every read of a tool list or a tool. */
function counting(store: HubStore): { store: HubStore; toolReads: () => number } {
  let reads = 0;
  const counted = new Set(['getManifest', 'listManifests', 'getTool']);
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (counted.has(String(key))) reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, toolReads: () => reads };
}

const QUERIES = [
  { query: 'create an issue in a repository' },
  { query: 'send a message to the team channel' },
  { query: 'list files in a folder', limit: 20 },
  { query: '', namespace: 'github', limit: 25 },
  { query: '' },
];

describe('the search documents the store keeps', () => {
  it('a new process answers from them without reading a tool list, exactly as from the tool lists', () => {
    // The first process finds no documents: it answers from the tool lists, and keeps documents.
    expect(local.store.listSearchDocuments()).toEqual([]);
    const first = new Lookup(local.store, localWording);
    const answers = QUERIES.map((input) => first.search(input));
    expect(local.store.listSearchDocuments().map((row) => row.namespace)).toEqual(
      manifests.map((m) => m.namespace).sort(),
    );
    const { store, toolReads } = counting(local.store);
    const next = new Lookup(store, localWording);
    expect(QUERIES.map((input) => next.search(input))).toEqual(answers);
    expect(toolReads()).toBe(0);
  });

  it('a refreshed manifest drops its documents; the next search makes them from the new one', () => {
    new Lookup(local.store, localWording).search({ query: 'warm' });
    const github = manifests.find((m) => m.namespace === 'github') as Manifest;
    const renamed = {
      ...github,
      fetchedAt: 5,
      tools: github.tools.map((tool) =>
        tool.name === 'create_issue' ? { ...tool, description: 'File a ticket about a pelican.' } : tool,
      ),
    };
    local.store.putManifest(renamed);
    expect(local.store.listSearchDocuments().some((row) => row.namespace === 'github')).toBe(false);
    const answer = new Lookup(local.store, localWording).search({ query: 'pelican ticket' });
    expect(answer).toContain('github.create_issue');
    expect(local.store.listSearchDocuments().find((row) => row.namespace === 'github')?.fetchedAt).toBe(5);
  });

  it('documents of an older manifest, other code or no shape are made again, never trusted', () => {
    const lookup = () => new Lookup(local.store, localWording);
    const answer = lookup().search({ query: 'create an issue in a repository' });
    const row = local.store.listSearchDocuments().find((r) => r.namespace === 'github');
    if (!row) throw new Error('github has no documents');
    const stale = [
      // Documents that would rank a tool of another namespace, from an older manifest …
      { ...row, fetchedAt: row.fetchedAt - 1 },
      // … from code of another format …
      { ...row, format: '0:00000000' },
      // … and ones that are not documents of github at all.
      { ...row, documents: [{ doc: { kind: 'tool', namespace: 'slack', address: 'slack.x' }, terms: [] }] },
    ];
    for (const bad of stale) {
      // The row as the store would keep it, then changed under the store (a file edited, a bug).
      local.store.putSearchDocuments(row);
      local.sqlite
        .prepare(
          'UPDATE hub_search_documents SET fetched_at = ?, format = ?, documents = ? WHERE namespace = ?',
        )
        .run(bad.fetchedAt, bad.format, JSON.stringify(bad.documents), 'github');
      const { store, toolReads } = counting(local.store);
      expect(new Lookup(store, localWording).search({ query: 'create an issue in a repository' })).toBe(
        answer,
      );
      expect(toolReads()).toBeGreaterThan(0);
      expect(local.store.listSearchDocuments().find((r) => r.namespace === 'github')).toMatchObject({
        fetchedAt: row.fetchedAt,
        format: row.format,
      });
    }
  });

  it('a profile that shows part of a namespace neither reads nor keeps documents for it', () => {
    const view = new ProfileView({
      name: 'narrow',
      mode: 'code',
      tools: ['github.create_issue', 'github.get_issue'],
      createdAt: 0,
      updatedAt: 0,
    });
    // Another process has kept documents for every namespace, github's whole tool list among them.
    new Lookup(local.store, localWording).search({ query: 'warm' });
    const kept = local.store.listSearchDocuments();
    expect(kept.map((row) => row.namespace)).toContain('github');
    const { store, toolReads } = counting(local.store);
    const answer = new Lookup(store, localWording, () => view).search({ query: 'issue' });
    expect(answer).toContain('github.create_issue');
    expect(answer).not.toContain('github.update_issue');
    expect(toolReads()).toBeGreaterThan(0);
    expect(local.store.listSearchDocuments()).toEqual(kept);
  });
});
