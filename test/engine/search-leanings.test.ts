/**
 * What a query leans on besides its words (issue #35), on the real corpus: the kinds of service
 * each source is found to be from its tools' own words, a person's words for a kind, questions
 * leaning toward tools that read, a source's name alone not making a match, and the answer that
 * found nothing close saying what each source is for.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../engine/contracts/sources.ts';
import { SearchIndex, search } from '../../engine/search/index.ts';
import { isQuestion, onlyReads } from '../../engine/search/reads.ts';
import { KIND_TERMS, kindsAsked, SERVICE_KINDS } from '../../engine/search/service-kinds.ts';
import { terms } from '../../engine/search/tokenize.ts';
import { localWording } from '../../local/wording.ts';
import { corpusManifests } from '../corpus.ts';

let manifests: Manifest[];
let index: SearchIndex;

beforeAll(async () => {
  manifests = await corpusManifests();
  index = SearchIndex.build(manifests);
});

const labels = (namespace: string) => index.traits(namespace).kinds.map((kind) => SERVICE_KINDS[kind]?.label);

const answer = (query: string) =>
  search(
    index,
    { query },
    {
      signatureOf: (doc) => `${doc.address}(input)`,
      effectOf: () => 'allow',
      connectionsOf: () => [],
      wording: localWording,
      sources: () => [],
      aboutOf: (namespace) =>
        namespace === 'context7' ? 'Use this server for library docs. More.' : undefined,
    },
  );

describe('service kinds', () => {
  it('finds what each corpus source is for from its tools and its name', () => {
    expect(labels('slack')).toEqual(['team chat']);
    expect(labels('hubspot')).toEqual(['CRM']);
    expect(labels('linear')).toEqual(['issue tracker']);
    expect(labels('github')).toContain('code host');
    expect(labels('sentry')).toContain('error tracker');
    expect(labels('maps')).toEqual(['maps and places']);
    expect(labels('memory')).toEqual(['memory']);
    expect(labels('kubernetes')).toEqual(['cluster']);
    expect(labels('playwright')).toEqual(['browser']);
    expect(labels('notion')).toEqual(['documents and wiki']);
    expect(labels('mongodb')).toEqual(['database']);
    expect(labels('filesystem')).toEqual(['files']);
    expect(labels('everything')).toEqual([]);
  });

  it('hears a kind in a person’s words, and one named only by its objects at a share', () => {
    const chat = SERVICE_KINDS.findIndex((kind) => kind.label === 'team chat');
    const cluster = SERVICE_KINDS.findIndex((kind) => kind.label === 'cluster');
    expect(kindsAsked(new Set(terms('let the team know the build is green')), 0.5).get(chat)).toBe(1);
    expect(kindsAsked(new Set(terms('run kubectl describe')), 0.5).get(cluster)).toBe(0.5);
    expect(kindsAsked(new Set(terms('run kubectl describe')), 0).has(cluster)).toBe(false);
    // No kind is asked for by a word as common as "get" (a phrase never loses a word to stopwords).
    const asked = [...kindsAsked(new Set(terms('get my calendar events')), 0.5).keys()];
    expect(asked.map((kind) => SERVICE_KINDS[kind]?.label)).toContain('calendar');
    expect(asked.map((kind) => SERVICE_KINDS[kind]?.label)).not.toContain('maps and places');
    // Every word list is stemmed the index's way, and no kind is without words.
    for (const kind of KIND_TERMS) expect(kind.asks.length * kind.marks.length).toBeGreaterThan(0);
  });
});

describe('questions', () => {
  it('knows a question by its first word or its mark, and a polite request from one', () => {
    expect(isQuestion('can you create an issue in github?')).toBe(false);
    expect(isQuestion('could we post the notes')).toBe(false);
    expect(isQuestion('can this token read the repo?')).toBe(true);
    expect(isQuestion('is anyone waiting on my review')).toBe(true);
    expect(isQuestion('what did we ship this week')).toBe(true);
    expect(isQuestion('the deploy went out?')).toBe(true);
    expect(isQuestion('post the release notes')).toBe(false);
  });

  it('takes a tool as reading by its annotation, else by its name’s verb past a source prefix', () => {
    const tool = (name: string, readOnlyHint?: boolean) => ({
      kind: 'tool' as const,
      address: `x.${name}`,
      namespace: 'x',
      name,
      contract: '',
      summary: '',
      ...(readOnlyHint === undefined ? {} : { annotations: { readOnlyHint } }),
    });
    expect(onlyReads(tool('slack_get_channel_history'))).toBe(true);
    expect(onlyReads(tool('hubspotSearchObjects'))).toBe(true);
    expect(onlyReads(tool('create_issue'))).toBe(false);
    expect(onlyReads(tool('create_issue', true))).toBe(true);
    expect(onlyReads(tool('list_issues', false))).toBe(false);
  });

  it('lean toward tools that read', () => {
    const top = (query: string) => index.query(query, { limit: 1 }).hits[0]?.document.address;
    expect(top('who changed the checkout code')).not.toMatch(/create|update|delete/);
  });
});

describe('an answer that finds nothing close', () => {
  it('shows the nearest few, says so, and says what each source is for, in its own words', () => {
    const text = answer('let the author know the fix looks good');
    expect(text).toContain('None of these is close to "let the author know the fix looks good".');
    expect(text).toContain(
      'What each source is for: search again with the action and its words, or pass namespace.',
    );
    expect(text).toMatch(/^ {2}slack {2}team chat: .*channel.*\(8 tools\)$/m);
    expect(text).toMatch(
      /^ {2}context7 {2}library docs: .* — its server says: "Use this server for library docs\."$/m,
    );
    // The hits are all shown still: a tool at rank 5 is one the model may want.
    expect(text.match(/\(input\)/g)?.length).toBe(8);
    expect(text.split('\n').filter((line) => /^ {2}\S+ {2}/.test(line)).length).toBeGreaterThanOrEqual(24);
  });

  it('answers a close query as before: the matches and how many more', () => {
    const text = answer('create a github issue');
    expect(text.startsWith('github\n  github.create_issue(input)')).toBe(true);
    expect(text).not.toContain('What each source is for');
  });

  it('does not list tools that share only their source’s name with the query', () => {
    const notes = SearchIndex.build([
      {
        namespace: 'notes',
        fetchedAt: 0,
        tools: [
          {
            address: 'notes.read_graph',
            name: 'read_graph',
            description: 'Read the graph.',
            inputSchema: {},
            contract: '',
          },
        ],
      },
      {
        namespace: 'docs',
        fetchedAt: 0,
        tools: [
          {
            address: 'docs.write',
            name: 'write',
            description: 'Write release text.',
            inputSchema: {},
            contract: '',
          },
        ],
      },
    ]);
    expect(notes.query('write release notes').hits.map((hit) => hit.document.address)).toEqual([
      'docs.write',
    ]);
    // A query of the source's name alone still lists its tools.
    expect(notes.query('notes').hits.map((hit) => hit.document.address)).toEqual(['notes.read_graph']);
    // A query within one namespace leaves nothing behind for the next one.
    notes.query('graph', { namespace: 'docs' });
    expect(notes.query('write release notes').hits.map((hit) => hit.document.address)).toEqual([
      'docs.write',
    ]);
  });

  it('says nothing of tools the policy hides: not their kind, words or count', () => {
    const acme = SearchIndex.build([
      {
        namespace: 'acme',
        fetchedAt: 0,
        tools: ['send_email', 'list_inbox', 'get_weather'].map((name) => ({
          address: `acme.${name}`,
          name,
          description: `${name.replace('_', ' ')} at acme.`,
          inputSchema: {},
          contract: '',
        })),
      },
    ]);
    const text = search(
      acme,
      { query: 'let the board know about the offsite' },
      {
        signatureOf: (doc) => `${doc.address}(input)`,
        effectOf: (doc) => (doc.name === 'get_weather' ? 'allow' : 'deny'),
        connectionsOf: () => [],
        wording: localWording,
        sources: () => ['acme'],
      },
    );
    expect(text).toMatch(/^ {2}acme {2}get, weather \(1 tool\)$/m);
    expect(text).not.toMatch(/email|inbox/);
  });
});
