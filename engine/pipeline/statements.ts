/**
 * The top-level statements of plain JavaScript (types already stripped), found from sucrase's
 * tokens: enough structure to see a lone function, an `export default` and the final statement,
 * without a full AST. Brackets are matched once; compound statements are skipped by their
 * grammar (`if (…) S else S`, `try {…} catch (…) {…}` …); simple statements end at `;`, before a
 * closing bracket, or at a line break where JavaScript inserts a semicolon (ASI).
 *
 * Invariant: when the skimmer is unsure it gives up (`undefined`) rather than guess, and the
 * pipeline then runs the code without rewriting its shape. Every rewrite is also re-parsed.
 */
import { ContextualKeyword as ck } from 'sucrase/dist/parser/tokenizer/keywords.js';
import { TokenType as tt } from 'sucrase/dist/parser/tokenizer/types.js';
import type { Token } from './tokens.ts';

export type StatementKind =
  | 'empty'
  | 'expression'
  | 'function'
  | 'declaration'
  | 'control'
  | 'export-default'
  | 'export'
  | 'import';

/** One top-level statement: tokens [first, end). */
export interface Statement {
  kind: StatementKind;
  first: number;
  end: number;
}

class Lost extends Error {}

const OPENERS: ReadonlySet<number> = new Set([tt.parenL, tt.bracketL, tt.braceL, tt.dollarBraceL]);
const CLOSERS: ReadonlySet<number> = new Set([tt.parenR, tt.bracketR, tt.braceR]);
/** Tokens that end an operand: a line break after one, before a non-continuation, ends the statement. */
const OPERAND_ENDS: ReadonlySet<number> = new Set([
  tt.num, tt.bigint, tt.decimal, tt.string, tt.regexp, tt.bracketR, tt.parenR, tt.braceR,
  tt.backQuote, tt._this, tt._super, tt._null, tt._true, tt._false, tt.postIncDec,
]); // biome-ignore format: a token list reads better packed
/** Tokens that continue an expression across a line break (besides binary operators). */
const CONTINUATIONS: ReadonlySet<number> = new Set([
  tt.dot, tt.questionDot, tt.parenL, tt.bracketL, tt.backQuote, tt.comma, tt.question,
  tt.colon, tt.arrow, tt.eq, tt.assign,
]); // biome-ignore format: a token list reads better packed
/** Keywords after which a line break always ends the statement (restricted productions). */
const RESTRICTED: ReadonlySet<number> = new Set([tt._return, tt._break, tt._continue, tt._throw, tt._yield]);
const CONTROL: ReadonlySet<number> = new Set([
  tt._if, tt._for, tt._while, tt._do, tt._try, tt._switch, tt._with, tt.braceL, tt._return,
  tt._throw, tt._break, tt._continue, tt._debugger,
]); // biome-ignore format: a token list reads better packed

/** Reads statements out of one token list. */
export class Skimmer {
  readonly #code: string;
  readonly #tokens: readonly Token[];
  readonly #pairs: Int32Array;
  readonly #openers: Int32Array;
  /** Index of the `eof` token. */
  readonly eof: number;

  constructor(code: string, tokens: readonly Token[]) {
    this.#code = code;
    this.#tokens = tokens;
    this.eof = tokens.length - 1;
    this.#pairs = pairBrackets(tokens);
    this.#openers = new Int32Array(tokens.length).fill(-1);
    this.#pairs.forEach((closer, opener) => {
      if (closer >= 0) this.#openers[closer] = opener;
    });
  }

  /** The top-level statements, or undefined when the skimmer lost its way. */
  statements(): Statement[] | undefined {
    try {
      const found: Statement[] = [];
      for (let i = 0; i < this.eof; ) {
        const end = this.skip(i);
        if (end <= i || end > this.eof) return undefined;
        found.push({ kind: this.kindAt(i), first: i, end });
        i = end;
      }
      return found;
    } catch (error) {
      if (error instanceof Lost) return undefined;
      throw error;
    }
  }

  type(i: number): number {
    return this.#tokens[i]?.type ?? tt.eof;
  }

  token(i: number): Token {
    const token = this.#tokens[i];
    if (!token) throw new Lost();
    return token;
  }

  /** The source text of token `i`. */
  text(i: number): string {
    const token = this.token(i);
    return this.#code.slice(token.start, token.end);
  }

  /**
   * Whether token `i` is the keyword `word`. sucrase retypes some keywords as names where they
   * are used as expressions (`function` in `(function () {})`, `import` in `import.meta`); a
   * reserved word can only be a name token that way, so its text decides.
   */
  isKeyword(i: number, type: number, word: string): boolean {
    const token = this.#tokens[i];
    if (!token) return false;
    return (
      token.type === type || (token.type === tt.name && this.#code.slice(token.start, token.end) === word)
    );
  }

  isName(i: number, keyword?: number): boolean {
    return this.type(i) === tt.name && (keyword === undefined || this.token(i).contextualKeyword === keyword);
  }

  /** The index of the bracket that closes the one at `i`. */
  pair(i: number): number {
    const closer = this.#pairs[i] ?? -1;
    if (closer < 0) throw new Lost();
    return closer;
  }

  /** The index of the bracket that the one at `i` closes, or -1. */
  opener(i: number): number {
    return this.#openers[i] ?? -1;
  }

  /** Whether a line break separates token `i` from the one before it. */
  lineBreakBefore(i: number): boolean {
    const previous = this.#tokens[i - 1];
    const token = this.#tokens[i];
    if (!previous || !token) return false;
    return /[\n\r\u2028\u2029]/.test(this.#code.slice(previous.end, token.start));
  }

  /** `async function` with no line break between the two words. */
  isAsyncFunction(i: number): boolean {
    return this.isName(i, ck._async) && this.isFunction(i + 1) && !this.lineBreakBefore(i + 1);
  }

  isFunction(i: number): boolean {
    return this.isKeyword(i, tt._function, 'function');
  }

  /** The index just past the statement that starts at `i`. */
  skip(i: number): number {
    switch (this.type(i)) {
      case tt.semi:
        return i + 1;
      case tt.braceL:
        return this.pair(i) + 1;
      case tt._if: {
        let j = this.skip(this.afterParens(i + 1));
        if (this.type(j) === tt._else) j = this.skip(j + 1);
        return j;
      }
      case tt._for: {
        const head = this.isName(i + 1, ck._await) ? i + 2 : i + 1;
        return this.skip(this.afterParens(head));
      }
      case tt._while:
      case tt._with:
        return this.skip(this.afterParens(i + 1));
      case tt._do: {
        const j = this.skip(i + 1);
        if (this.type(j) !== tt._while) throw new Lost();
        const k = this.afterParens(j + 1);
        return this.type(k) === tt.semi ? k + 1 : k;
      }
      case tt._try:
        return this.afterTry(i);
      case tt._switch:
        return this.afterBlock(this.afterParens(i + 1));
      case tt._function:
        return this.afterFunction(i);
      case tt._class:
        return this.afterClass(i);
      case tt._export:
        return this.type(i + 1) === tt._default ? this.afterDefault(i + 2) : this.skipSimple(i);
      case tt.name:
        if (this.isAsyncFunction(i)) return this.afterFunction(i + 1);
        if (this.type(i + 1) === tt.colon) return this.skip(i + 2); // a label
        return this.skipSimple(i);
      default:
        return this.skipSimple(i);
    }
  }

  /** The index past `function [*] [name] (…) {…}`, with `i` at `function`. */
  afterFunction(i: number): number {
    let j = i + 1;
    if (this.type(j) === tt.star) j++;
    if (this.type(j) === tt.name) j++;
    return this.afterBlock(this.afterParens(j));
  }

  private afterDefault(i: number): number {
    if (this.isFunction(i)) return this.afterFunction(i);
    if (this.isAsyncFunction(i)) return this.afterFunction(i + 1);
    if (this.type(i) === tt._class) return this.afterClass(i);
    return this.skipSimple(i);
  }

  private afterClass(i: number): number {
    let j = i + 1;
    while (j < this.eof && this.type(j) !== tt.braceL)
      j = OPENERS.has(this.type(j)) ? this.pair(j) + 1 : j + 1;
    return this.afterBlock(j);
  }

  private afterTry(i: number): number {
    let j = this.afterBlock(i + 1);
    if (this.type(j) === tt._catch) {
      j++;
      if (this.type(j) === tt.parenL) j = this.pair(j) + 1;
      j = this.afterBlock(j);
    }
    if (this.type(j) === tt._finally) j = this.afterBlock(j + 1);
    return j;
  }

  private afterParens(i: number): number {
    if (this.type(i) !== tt.parenL) throw new Lost();
    return this.pair(i) + 1;
  }

  private afterBlock(i: number): number {
    if (this.type(i) !== tt.braceL) throw new Lost();
    return this.pair(i) + 1;
  }

  /** An expression or declaration statement: up to `;`, a closing bracket, or ASI. */
  private skipSimple(i: number): number {
    let j = i;
    while (j < this.eof) {
      const type = this.type(j);
      if (j > i && this.lineBreakBefore(j) && this.asiBetween(j)) return j;
      if (type === tt.semi) return j + 1;
      if (CLOSERS.has(type)) return j;
      if (j > i && (type === tt._else || type === tt._catch || type === tt._finally)) return j;
      j = OPENERS.has(type) ? this.pair(j) + 1 : j + 1;
    }
    return j;
  }

  /** Whether JavaScript inserts a semicolon at the line break before token `j`. */
  asiBetween(j: number): boolean {
    const previous = this.token(j - 1);
    const type = this.type(j);
    if (RESTRICTED.has(previous.type)) return true;
    const operandEnded =
      OPERAND_ENDS.has(previous.type) ||
      (previous.type === tt.name && previous.contextualKeyword !== ck._await);
    if (type === tt.preIncDec || type === tt.postIncDec) return operandEnded;
    if (!operandEnded) return false;
    const binary = (type & tt.PRECEDENCE_MASK) > 0;
    return !binary && !CONTINUATIONS.has(type);
  }

  private kindAt(i: number): StatementKind {
    const type = this.type(i);
    if (type === tt.semi) return 'empty';
    if (this.isFunction(i) || this.isAsyncFunction(i)) return 'function';
    if (type === tt._var || type === tt._let || type === tt._const || type === tt._class)
      return 'declaration';
    if (this.isName(i, ck._using) && this.isName(i + 1) && !this.lineBreakBefore(i + 1)) return 'declaration';
    if (CONTROL.has(type) || (type === tt.name && this.type(i + 1) === tt.colon)) return 'control';
    if (type === tt._export) return this.type(i + 1) === tt._default ? 'export-default' : 'export';
    if (type === tt._import && this.type(i + 1) !== tt.parenL && this.type(i + 1) !== tt.dot) return 'import';
    return 'expression';
  }
}

/** For each opening bracket, the index of its closer (-1 for everything else or unmatched). */
function pairBrackets(tokens: readonly Token[]): Int32Array {
  const pairs = new Int32Array(tokens.length).fill(-1);
  const open: number[] = [];
  tokens.forEach((token, i) => {
    if (OPENERS.has(token.type)) open.push(i);
    else if (CLOSERS.has(token.type)) {
      const opener = open.pop();
      if (opener !== undefined) pairs[opener] = i;
    }
  });
  return pairs;
}
