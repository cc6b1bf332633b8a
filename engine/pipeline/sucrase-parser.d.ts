/**
 * Types for the two corners of sucrase's parser the pipeline uses directly: its tokenizer's
 * output (`parse`) and the token type enum. sucrase 3 ships these declarations under
 * `dist/types/` but has no `exports` map, so the runtime paths need this bridge. Pinned to the
 * installed sucrase (3.35); the pipeline's tests exercise every token type it relies on.
 */
declare module 'sucrase/dist/parser/index.js' {
  export { parse } from 'sucrase/dist/types/parser/index';
}

declare module 'sucrase/dist/parser/tokenizer/types.js' {
  export { formatTokenType, TokenType } from 'sucrase/dist/types/parser/tokenizer/types';
}

declare module 'sucrase/dist/parser/tokenizer/keywords.js' {
  export { ContextualKeyword } from 'sucrase/dist/types/parser/tokenizer/keywords';
}
