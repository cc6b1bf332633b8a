/**
 * From text to index terms (engine/search/tokenize.ts, stem.ts, vocabulary.ts, query.ts) and the
 * first sentence of a description (first-sentence.ts), with exact expectations: these decide
 * what can match at all, so each rule is pinned here by example.
 */
import { describe, expect, it } from 'vitest';
import { firstSentence } from '../../engine/search/first-sentence.ts';
import { queryConcepts } from '../../engine/search/query.ts';
import { DEFAULT_RANKING } from '../../engine/search/ranking.ts';
import { stem } from '../../engine/search/stem.ts';
import { terms, tokens, words } from '../../engine/search/tokenize.ts';
import { SYNONYMS, synonymTable } from '../../engine/search/vocabulary.ts';

describe('words', () => {
  it.each([
    ['slack_get_channel_history', ['slack', 'get', 'channel', 'history']],
    ['APIRetrieveAPage', ['api', 'retrieve', 'a', 'page']],
    ['getUser2FA', ['get', 'user', '2fa']],
    ['API-post-search', ['api', 'post', 'search']],
    ['resolve-library-id', ['resolve', 'library', 'id']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['HTTPServer', ['http', 'server']],
    ['mergeRequestIID', ['merge', 'request', 'iid']],
    ['list IDs and URLs', ['list', 'ids', 'and', 'urls']],
    ['base64Encode', ['base', '64', 'encode']],
    ['3dRender', ['3d', 'render']],
    ['v1.2 of api.example.com', ['v', '1', '2', 'of', 'api', 'example', 'com']],
    ["the user's e.g. thumbsup", ['the', 'user', 's', 'e', 'g', 'thumbsup']],
    ['Créer un problème', ['creer', 'un', 'probleme']],
    ['日本語のテキスト', ['日本語のテキスト']],
    ['', []],
    ['—!?', []],
  ])('%j -> %j', (text, expected) => {
    expect(words(text)).toEqual(expected);
  });
});

describe('tokens', () => {
  it('keeps each token whole beside its words', () => {
    expect(tokens('open GitHub_PRs, v2')).toEqual([
      { whole: 'open', words: ['open'] },
      { whole: 'github', words: ['git', 'hub'] },
      { whole: 'prs', words: ['prs'] },
      { whole: 'v2', words: ['v', '2'] },
    ]);
  });
});

describe('terms', () => {
  it.each([
    // stopwords, single characters and bare numbers go; the rest is stemmed
    ['Create a new issue in a repository', ['creat', 'new', 'issu', 'repository']],
    ['create_or_update_file', ['creat', 'updat', 'fil']],
    // a token of several words is also one word as written
    ['a GitHub issue', ['git', 'hub', 'github', 'issu']],
    ['APIRetrievePage', ['api', 'retriev', 'pag', 'apiretrievepag']],
    ['k8s and s3Bucket', ['8s', 'k8s', 'bucket', 's3bucket']],
    ['Returns the top-10 results (v1.2), e.g. 404s', ['return', 'top', 'result', 'v1', '404s']],
    ['List all IDs', ['list', 'all', 'id']],
    ['who am I', ['who']],
  ])('%j -> %j', (text, expected) => {
    expect(terms(text)).toEqual(expected);
  });
});

describe('stem', () => {
  it.each([
    // one stem for the forms of a verb, the noun of the action included
    ...['create', 'creates', 'created', 'creating', 'creation'].map((w) => [w, 'creat']),
    ...['update', 'updates', 'updated', 'updating'].map((w) => [w, 'updat']),
    ...['delete', 'deletes', 'deleted', 'deleting', 'deletion'].map((w) => [w, 'delet']),
    ...['merge', 'merges', 'merged', 'merging'].map((w) => [w, 'merg']),
    ...['search', 'searches', 'searched', 'searching'].map((w) => [w, 'search']),
    ...['list', 'lists', 'listed', 'listing'].map((w) => [w, 'list']),
    ...['deploy', 'deployment', 'deployments'].map((w) => [w, 'deploy']),
    // plurals (Harman's S-stemmer)
    ['issues', 'issu'],
    ['entities', 'entity'],
    ['repositories', 'repository'],
    ['branches', 'branch'],
    ['addresses', 'address'],
    ['aliases', 'alias'],
    ['ids', 'id'],
    ['prs', 'pr'],
    // what must not change
    ['status', 'status'],
    ['class', 'class'],
    ['analysis', 'analysis'],
    ['news', 'news'],
    ['bus', 'bus'],
    ['yes', 'yes'],
    ['string', 'string'],
    ['need', 'need'],
    ['comment', 'comment'],
    ['document', 'document'],
    ['2fa', '2fa'],
    // doubled consonants undone only when three letters remain
    ['running', 'run'],
    ['stopped', 'stop'],
    ['added', 'add'],
    ['logging', 'log'],
    ['applied', 'apply'],
  ])('%s -> %s', (word, expected) => {
    expect(stem(word as string)).toBe(expected);
  });
});

describe('queryConcepts', () => {
  const known = () => true;

  it('gives each word its synonyms at the lower weight, and joins adjacent words', () => {
    const table = synonymTable([['delete', 'remove', 'drop']]);
    expect(queryConcepts('remove a label', DEFAULT_RANKING, known, table)).toEqual([
      {
        terms: [
          { term: 'remov', weight: 1 },
          { term: 'delet', weight: DEFAULT_RANKING.synonymWeight },
          { term: 'drop', weight: DEFAULT_RANKING.synonymWeight },
        ],
      },
      { terms: [{ term: 'label', weight: 1 }] },
      { terms: [{ term: 'removea', weight: 1 }] },
      { terms: [{ term: 'removealabel', weight: 1 }] },
      { terms: [{ term: 'alabel', weight: 1 }] },
    ]);
  });

  it('reads a token as written when the index knows it, else as its words', () => {
    const index = new Set(['github', 'creat', 'issu']);
    const concepts = queryConcepts('GitHub createIssue', DEFAULT_RANKING, (t) => index.has(t), new Map());
    expect(concepts.map((c) => c.terms.map((t) => t.term))).toEqual([['github'], ['creat'], ['issu']]);
  });

  it('keeps only terms the index knows, so `who am i` finds whoami', () => {
    const index = new Set(['whoami', 'sentry']);
    const concepts = queryConcepts('who am I in sentry', DEFAULT_RANKING, (t) => index.has(t), SYNONYMS);
    expect(concepts.map((c) => c.terms.map((t) => t.term))).toEqual([['sentry'], ['whoami']]);
  });

  it('makes query words that are synonyms of each other one concept', () => {
    const concepts = queryConcepts('create a new issue', DEFAULT_RANKING, known, SYNONYMS);
    expect(concepts[0]?.terms.slice(0, 2)).toEqual([
      { term: 'creat', weight: 1 },
      { term: 'new', weight: 1 },
    ]);
    expect(concepts.filter((c) => c.terms.some((t) => t.term === 'new'))).toHaveLength(1);
  });

  it('reads an abbreviation the vocabulary knows as written, even when the index does not', () => {
    const index = new Set(['kubernet', 'pod']);
    const concepts = queryConcepts('k8s pods', DEFAULT_RANKING, (t) => index.has(t), SYNONYMS);
    // k8s is in no tool, so its synonym stands in for it at the boosted weight.
    const { synonymWeight, standInBoost } = DEFAULT_RANKING;
    expect(concepts).toEqual([
      { terms: [{ term: 'kubernet', weight: Math.min(1, synonymWeight * standInBoost) }] },
      { terms: [{ term: 'pod', weight: 1 }] },
    ]);
  });

  it('boosts synonyms only for a query word no tool uses', () => {
    const { synonymWeight, standInBoost } = DEFAULT_RANKING;
    expect(standInBoost).toBeGreaterThan(1);
    const withWord = queryConcepts('k8s', DEFAULT_RANKING, (t) => t === 'k8s' || t === 'kubernet', SYNONYMS);
    expect(withWord[0]?.terms).toEqual([
      { term: 'k8s', weight: 1 },
      { term: 'kubernet', weight: synonymWeight },
    ]);
  });

  it('expands an abbreviation to each word of its phrase, sharing the weight', () => {
    const concepts = queryConcepts('review a pr', DEFAULT_RANKING, known, SYNONYMS);
    const pr = concepts.find((c) => c.terms[0]?.term === 'pr');
    expect(pr?.terms).toEqual([
      { term: 'pr', weight: 1 },
      { term: 'pull', weight: DEFAULT_RANKING.synonymWeight / 2 },
      { term: 'request', weight: DEFAULT_RANKING.synonymWeight / 2 },
    ]);
  });
});

describe('firstSentence', () => {
  it.each([
    ['Create an issue in a repository. Requires push access.', 'Create an issue in a repository.'],
    ['Search issues and pull requests', 'Search issues and pull requests'],
    ['Add an emoji (e.g. thumbsup, rocket). Use this for…', 'Add an emoji (e.g. thumbsup, rocket).'],
    [
      'Manage rollouts (i.e., restarts) of a resource. More.',
      'Manage rollouts (i.e., restarts) of a resource.',
    ],
    ['Calls the v1.2 API at api.example.com. Then stops.', 'Calls the v1.2 API at api.example.com.'],
    ['Fetch https://example.com/a.html now. Done.', 'Fetch https://example.com/a.html now.'],
    ['Is it up? Pings it.', 'Is it up?'],
    // line breaks: a new line ends the sentence, unless it carries on in lowercase
    ['Notion | Retrieve a user\nError Responses:\n400: 400', 'Notion | Retrieve a user'],
    [
      'Search the web and\noptionally extract content. More.',
      'Search the web and optionally extract content.',
    ],
    // markdown, list markers, pictographs and label lines
    ['**Scrape** a `URL` into [markdown](https://x.dev). Fast.', 'Scrape a URL into markdown.'],
    [
      '\n    🎯 Purpose:\n      1. Retrieves a list of objects.\n\n    📦 Returns:',
      'Retrieves a list of objects.',
    ],
    ['# Overview\n\nRuns a query.', 'Runs a query.'],
    ['```json\n{"a": 1}\n```\nParses JSON. Strictly.', 'Parses JSON.'],
    ['', ''],
    ['   \n  ', ''],
  ])('%j -> %j', (description, expected) => {
    expect(firstSentence(description)).toBe(expected);
  });

  it('is empty without a description', () => {
    expect(firstSentence(undefined)).toBe('');
  });

  it('caps a long sentence at a word, with an ellipsis', () => {
    const long = `Returns ${'many words '.repeat(40)}at the end.`;
    const cut = firstSentence(long, 60);
    expect(cut).toBe('Returns many words many words many words many words many…');
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(firstSentence(long).length).toBeLessThanOrEqual(200);
  });
});
