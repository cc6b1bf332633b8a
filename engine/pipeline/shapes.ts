/**
 * The code shapes models send instead of a function body, each rewritten with one notice:
 * - `export default X`: unwrapped (a named default function is then called);
 * - a lone function declaration: called, and its value returned;
 * - a final function expression (arrow or not, async or not): called, and its value returned;
 * - a final expression statement: returned.
 *
 * Rewrites only insert or blank text on the lines they touch (a removed keyword keeps its line
 * breaks), so line N of the result is line N of the input; appended calls go after the last line.
 */
import { ContextualKeyword as ck } from 'sucrase/dist/parser/tokenizer/keywords.js';
import { TokenType as tt } from 'sucrase/dist/parser/tokenizer/types.js';
import { Skimmer, type Statement } from './statements.ts';
import { position, type Token } from './tokens.ts';

interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface Shaped {
  code: string;
  notices: string[];
}

/** `code` (plain JavaScript) with its shape rewritten, or unchanged when it needs none. */
export function reshape(code: string, tokens: readonly Token[]): Shaped {
  const skimmer = new Skimmer(code, tokens);
  const statements = skimmer.statements();
  if (!statements) return { code, notices: [] };
  const shaper = new Shaper(code, skimmer);
  shaper.apply(statements);
  return { code: shaper.result(), notices: shaper.notices };
}

class Shaper {
  readonly notices: string[] = [];
  readonly #code: string;
  readonly #s: Skimmer;
  readonly #edits: Edit[] = [];
  #append = '';

  constructor(code: string, skimmer: Skimmer) {
    this.#code = code;
    this.#s = skimmer;
  }

  apply(statements: readonly Statement[]): void {
    const real = statements.filter((statement) => statement.kind !== 'empty');
    const last = real.at(-1);
    for (const statement of real) {
      if (statement.kind === 'export-default') this.exportDefault(statement, statement === last);
    }
    if (!last || last.kind === 'export-default') return;
    if (last.kind === 'function' && real.length === 1) {
      const name = this.functionName(last.first);
      if (name)
        this.callAtEnd(name, `Called \`${name}()\`, the code's lone function, and returned its value.`);
    } else if (last.kind === 'expression') {
      this.finalExpression(last.first, this.expressionEnd(last));
    }
  }

  result(): string {
    let code = this.#code;
    for (const edit of [...this.#edits].sort((a, b) => b.start - a.start)) {
      code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
    }
    return code + this.#append;
  }

  private exportDefault(statement: Statement, isLast: boolean): void {
    const s = this.#s;
    const body = statement.first + 2;
    this.blank(s.token(statement.first).start, s.token(body).start);
    this.notices.push('Unwrapped `export default`.');
    const isFunction = s.isFunction(body) || s.isAsyncFunction(body);
    const name = isFunction ? this.functionName(body) : undefined;
    if (name) {
      this.callAtEnd(name, `Called \`${name}()\`, the default export, and returned its value.`);
    } else if (s.type(body) !== tt._class) {
      // An anonymous function or any other value: an expression, so it takes parentheses
      // (`export default {…}` would otherwise read as a block).
      const end = this.expressionEnd(statement);
      if (isLast) this.finalExpression(body, end, true);
      else this.wrap(body, end, '(', ')');
    }
  }

  /** Returns the expression in tokens [first, end); a function expression is called first. */
  private finalExpression(first: number, end: number, parenthesize = false): void {
    const s = this.#s;
    const line = position(this.#code, s.token(first).start).line;
    if (this.isFunctionExpression(first, end)) {
      this.wrap(first, end, 'return (', ')()');
      this.notices.push(`Called the function expression on line ${line} and returned its value.`);
    } else {
      this.wrap(first, end, parenthesize ? 'return (' : 'return ', parenthesize ? ')' : '');
      this.notices.push(`Returned the value of the final expression (line ${line}).`);
    }
  }

  private callAtEnd(name: string, notice: string): void {
    this.#append = `\n;return ${name}();`;
    this.notices.push(notice);
  }

  /** The name of the function declared at `i` (`function` or `async function`), if it has one. */
  private functionName(i: number): string | undefined {
    const s = this.#s;
    const j = s.isAsyncFunction(i) ? i + 2 : i + 1;
    if (s.type(j) === tt.star) return undefined; // a generator: calling it runs nothing
    if (s.type(j) !== tt.name) return undefined;
    return s.text(j);
  }

  /** Whether tokens [first, end) are exactly one function expression, maybe parenthesized. */
  private isFunctionExpression(first: number, end: number): boolean {
    const s = this.#s;
    if (s.type(first) === tt.parenL && s.pair(first) === end - 1)
      return this.isFunctionExpression(first + 1, end - 1);
    if (s.isFunction(first)) return s.afterFunction(first) === end;
    if (s.isAsyncFunction(first)) return s.afterFunction(first + 1) === end;
    let j = first;
    if (s.isName(j, ck._async) && !s.lineBreakBefore(j + 1)) {
      if (s.type(j + 1) === tt.parenL || s.type(j + 1) === tt.name) j++;
    }
    if (s.type(j) === tt.parenL) j = s.pair(j) + 1;
    else if (s.type(j) === tt.name) j++;
    else return false;
    if (s.type(j) !== tt.arrow) return false;
    return s.type(j + 1) !== tt.braceL || s.pair(j + 1) + 1 === end;
  }

  /** The end of a statement's expression: its tokens without a closing `;`. */
  private expressionEnd(statement: Statement): number {
    return this.#s.type(statement.end - 1) === tt.semi ? statement.end - 1 : statement.end;
  }

  private wrap(first: number, end: number, before: string, after: string): void {
    const s = this.#s;
    this.#edits.push({ start: s.token(first).start, end: s.token(first).start, text: before });
    if (after) this.#edits.push({ start: s.token(end - 1).end, end: s.token(end - 1).end, text: after });
  }

  /** Removes text but keeps its line breaks, so the lines after it do not move. */
  private blank(start: number, end: number): void {
    this.#edits.push({ start, end, text: this.#code.slice(start, end).replace(/[^\n]/g, '') });
  }
}
