/**
 * The index kept current (engine/search/search-index.ts): an index brought up to date by upserts
 * and removes ranks exactly as one rebuilt from the same manifests, scores included; and the
 * query options (namespace, where, limit) and tie order behave as documented.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest, ManifestTool } from '../../engine/contracts/sources.ts';
import { type QueryResult, SearchIndex } from '../../engine/search/index.ts';
import { corpusManifests } from '../corpus.ts';

const queries = [
  ...readFileSync(new URL('../fixtures/corpus/queries-dev.jsonl', import.meta.url), 'utf8').split('\n'),
  ...readFileSync(new URL('../fixtures/search-intents.jsonl', import.meta.url), 'utf8').split('\n'),
]
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { query: string }).query);

let manifests: Manifest[];

beforeAll(async () => {
  manifests = await corpusManifests();
});

const byNamespace = (namespace: string): Manifest => {
  const manifest = manifests.find((m) => m.namespace === namespace);
  if (manifest === undefined) throw new Error(`no ${namespace} in the corpus`);
  return manifest;
};

/** Every result of every query, addresses and exact scores: what "ranks the same" means. */
function rankings(index: SearchIndex, namespace?: string): unknown[] {
  return queries.map((query) => {
    const result: QueryResult = index.query(query, { limit: 25, namespace });
    return { total: result.total, hits: result.hits.map((h) => [h.document.address, h.score]) };
  });
}

function tool(address: string, description: string): ManifestTool {
  return {
    address,
    name: address.split('.')[1] ?? address,
    description,
    inputSchema: {},
    contract: '0'.repeat(64),
  };
}

describe('SearchIndex kept current', () => {
  it('ranks after upserts and removes exactly as a full rebuild', () => {
    const rebuilt = SearchIndex.build(manifests);
    // Half at start, the rest added in reverse, three sources refreshed (one with another
    // version of its tools first), one removed and added back.
    const current = SearchIndex.build(manifests.slice(0, 12));
    for (const manifest of manifests.slice(12).reverse()) current.upsert(manifest);
    const github = byNamespace('github');
    current.upsert({ ...github, tools: github.tools.slice(0, 5) });
    for (const namespace of ['github', 'gitlab2', 'everything']) current.upsert(byNamespace(namespace));
    expect(current.remove('slack')).toBe(true);
    current.upsert(byNamespace('slack'));

    expect(current.size).toBe(rebuilt.size);
    expect(current.namespaces()).toEqual(rebuilt.namespaces());
    expect(rankings(current)).toEqual(rankings(rebuilt));
    expect(rankings(current, 'gitlab2')).toEqual(rankings(rebuilt, 'gitlab2'));
  });

  it('forgets a removed namespace entirely', () => {
    const index = SearchIndex.build(manifests);
    const before = index.size;
    expect(index.remove('slack')).toBe(true);
    expect(index.remove('slack')).toBe(false);
    expect(index.has('slack')).toBe(false);
    expect(index.size).toBe(before - byNamespace('slack').tools.length);
    const hits = index.query('post a message to slack', { limit: 25 }).hits;
    expect(hits.map((h) => h.document.namespace)).not.toContain('slack');
    expect(rankings(index)).toEqual(
      rankings(SearchIndex.build(manifests.filter((m) => m.namespace !== 'slack'))),
    );
  });

  it('replaces a namespace on upsert: a tool the refresh dropped is gone', () => {
    const index = SearchIndex.build([
      { namespace: 'notes', fetchedAt: 0, tools: [tool('notes.archive', 'Archive a note.')] },
    ]);
    expect(index.query('archive').total).toBe(1);
    index.upsert({ namespace: 'notes', fetchedAt: 1, tools: [tool('notes.pin', 'Pin a note.')] });
    expect(index.query('archive').total).toBe(0);
    expect(index.documents('notes').map((d) => d.address)).toEqual(['notes.pin']);
  });

  it('keeps an empty manifest as a known namespace with no documents', () => {
    const index = SearchIndex.build([{ namespace: 'idle', fetchedAt: 0, tools: [] }]);
    expect(index.has('idle')).toBe(true);
    expect(index.documents('idle')).toEqual([]);
    expect(index.query('anything')).toEqual({ hits: [], total: 0, excluded: 0, closeness: 0 });
  });
});

describe('SearchIndex queries', () => {
  const twins = (): SearchIndex =>
    SearchIndex.build([
      {
        namespace: 'beta',
        fetchedAt: 0,
        tools: [tool('beta.sendMail', 'Send an email.'), tool('beta.other', 'x')],
      },
      { namespace: 'alpha', fetchedAt: 0, tools: [tool('alpha.sendMail', 'Send an email.')] },
    ]);

  it('breaks ties by address, not by the order sources were added', () => {
    const hits = twins().query('send email').hits;
    expect(hits.map((h) => h.document.address)).toEqual(['alpha.sendMail', 'beta.sendMail']);
    expect(hits[0]?.score).toBe(hits[1]?.score);
  });

  it('searches one namespace when asked', () => {
    expect(
      twins()
        .query('send email', { namespace: 'beta' })
        .hits.map((h) => h.document.address),
    ).toEqual(['beta.sendMail']);
  });

  it('leaves out what `where` rejects before the limit, and counts it', () => {
    const result = twins().query('send email', { limit: 1, where: (doc) => doc.namespace !== 'alpha' });
    expect(result.hits.map((h) => h.document.address)).toEqual(['beta.sendMail']);
    expect(result).toMatchObject({ total: 1, excluded: 1 });
  });

  it('counts every match beyond the limit', () => {
    const index = SearchIndex.build(manifests);
    const result = index.query('pull request', { limit: 3 });
    expect(result.hits).toHaveLength(3);
    expect(result.total).toBeGreaterThan(3);
    expect(index.query('pull request', { limit: 25 }).hits.slice(0, 3)).toEqual(result.hits);
  });

  it('lists namespaces sorted and documents in manifest order', () => {
    const index = SearchIndex.build(manifests);
    expect(index.namespaces()).toEqual(manifests.map((m) => m.namespace).sort());
    expect(index.documents('github').map((d) => d.address)).toEqual(
      byNamespace('github').tools.map((t) => t.address),
    );
    expect(index.documents('nowhere')).toEqual([]);
  });

  it('matches nothing for a query of stopwords, punctuation or nothing', () => {
    const index = SearchIndex.build(manifests);
    for (const text of ['', '   ', 'the of and', '?!…']) expect(index.query(text).total).toBe(0);
  });
});
