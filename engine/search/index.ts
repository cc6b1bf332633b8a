/**
 * Search: the index of every tool a profile can see, ranked by BM25F over what each tool says it
 * does, and the plain-text answer of the `search` tool (spec: The MCP surface, search).
 *
 * ```ts
 * const index = SearchIndex.build(manifests);          // at start, from the stored manifests
 * index.upsert(manifest);                               // a source added or refreshed
 * index.remove('github');                               // a source removed
 * const text = search(index, { query: 'create an issue' }, { signatureOf, effectOf, connectionsOf });
 * ```
 *
 * Files, one concept each: tokenize.ts and stem.ts (words to terms), vocabulary.ts (synonyms),
 * document.ts (a tool's fields), query.ts (a query's concepts), ranking.ts (BM25F knobs),
 * search-index.ts (the index), first-sentence.ts, render.ts and search.ts (the answer),
 * input.ts (the tool's input schema).
 */
export type { Field, IndexedDocument, ToolDocument } from './document.ts';
export { firstSentence } from './first-sentence.ts';
export { DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY, parseSearchInput, SearchInput } from './input.ts';
export { DEFAULT_RANKING, type FieldRanking, type Ranking } from './ranking.ts';
export type { SearchDeps } from './render.ts';
export { search } from './search.ts';
export {
  type QueryOptions,
  type QueryResult,
  type SearchHit,
  SearchIndex,
  type SearchIndexOptions,
} from './search-index.ts';
