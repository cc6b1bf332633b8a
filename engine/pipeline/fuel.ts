/**
 * Compute checks for runtimes that cannot preempt the guest themselves: workerd enforces a
 * dynamic Worker's `cpuMs` on Cloudflare, but not when it runs locally, where a `while (true)`
 * would hold the whole runtime. Given plain JavaScript and the name of a check function, this
 * inserts a call to it at the top of every loop body and every function body (arrow expression
 * bodies included), so guest code cannot run long without calling it. QuickJS needs none of
 * this: its interrupt handler stops the guest wherever it is.
 *
 * Invariants: only insertions, never a line break, so line numbers stay the model's; a body
 * without braces is wrapped in them; the result is re-parsed, and a rewrite that does not parse
 * is refused, never run. Work done inside one native call (a regular expression, a sort with
 * no callback) is not counted; the platform's own CPU limit covers that where it exists.
 */

import { ContextualKeyword as ck } from 'sucrase/dist/parser/tokenizer/keywords.js';
import { TokenType as tt } from 'sucrase/dist/parser/tokenizer/types.js';
import { Skimmer } from './statements.ts';
import { type SyntaxFailure, tokenize } from './tokens.ts';

export type Fueled = { ok: true; code: string } | { ok: false; failure: SyntaxFailure };

interface Insertion {
  at: number;
  text: string;
  /** Among insertions at one place, lower ranks come last (the closers of outer constructs). */
  rank: number;
}

/** Keywords whose `( … ) {` is a statement's block, not a function's body. */
const CONTROL_HEADS: ReadonlySet<number> = new Set([
  tt._if,
  tt._for,
  tt._while,
  tt._switch,
  tt._catch,
  tt._with,
]);

/** `code` with a call to `check` (a bare identifier) at every loop and function entry. */
export function addComputeChecks(code: string, check: string): Fueled {
  const tokenized = tokenize(code, false);
  if (!tokenized.ok) return tokenized;
  const s = new Skimmer(code, tokenized.tokens);
  const call = `${check}();`;
  const insertions: Insertion[] = [];
  const classBodies = new Set<number>();
  const trailingWhiles = new Set<number>();

  for (let i = 0; i < s.eof; i++) {
    const type = s.type(i);
    if (type === tt._class) classBodies.add(classBody(s, i));
    if (type === tt._do) {
      const end = loopBody(s, i + 1, call, insertions);
      trailingWhiles.add(end);
    } else if (type === tt._while && !trailingWhiles.has(i)) {
      loopBody(s, s.pair(i + 1) + 1, call, insertions);
    } else if (type === tt._for) {
      const head = s.isName(i + 1, ck._await) ? i + 2 : i + 1;
      loopBody(s, s.pair(head) + 1, call, insertions);
    } else if (type === tt.arrow) {
      if (s.type(i + 1) === tt.braceL) insertions.push({ at: s.token(i + 1).end, text: call, rank: 2 });
      else {
        insertions.push({ at: s.token(i).end, text: `(${check}(),`, rank: 2 });
        insertions.push({ at: s.token(arrowBodyEnd(s, i + 1) - 1).end, text: ')', rank: 1 });
      }
    } else if (type === tt.braceL && !classBodies.has(i) && isFunctionBody(s, i)) {
      insertions.push({ at: s.token(i).end, text: call, rank: 2 });
    }
  }

  // Ascending; at one place, higher ranks first (an arrow's `)` before a loop's `}`).
  insertions.sort((a, b) => a.at - b.at || b.rank - a.rank);
  const pieces: string[] = [];
  let from = 0;
  for (const insertion of insertions) {
    pieces.push(code.slice(from, insertion.at), insertion.text);
    from = insertion.at;
  }
  pieces.push(code.slice(from));
  const fueled = pieces.join('');
  const reparsed = tokenize(fueled, false);
  return reparsed.ok ? { ok: true, code: fueled } : { ok: false, failure: reparsed.failure };
}

/** Checks the loop body starting at token `start`; returns the index past the body. */
function loopBody(s: Skimmer, start: number, call: string, insertions: Insertion[]): number {
  const end = s.skip(start);
  if (s.type(start) === tt.braceL) {
    insertions.push({ at: s.token(start).end, text: call, rank: 2 });
  } else {
    insertions.push({ at: s.token(start).start, text: `{${call}`, rank: 2 });
    insertions.push({ at: s.token(end - 1).end, text: '}', rank: 0 });
  }
  return end;
}

/** Whether the `{` at `i` opens a function's body (after `=>`, or a parameter list). */
function isFunctionBody(s: Skimmer, i: number): boolean {
  if (s.type(i - 1) === tt.arrow) return false; // counted at the arrow
  if (s.type(i - 1) !== tt.parenR) return false;
  const opener = s.opener(i - 1);
  if (opener <= 0) return false;
  const before = s.type(opener - 1);
  if (CONTROL_HEADS.has(before)) return false;
  if (s.isName(opener - 1, ck._await) && s.type(opener - 2) === tt._for) return false;
  return true;
}

/** The `{` of the class body for the `class` keyword at `i`. */
function classBody(s: Skimmer, i: number): number {
  let j = i + 1;
  while (j < s.eof && s.type(j) !== tt.braceL) {
    const type = s.type(j);
    j = type === tt.parenL || type === tt.bracketL || type === tt.dollarBraceL ? s.pair(j) + 1 : j + 1;
  }
  return j;
}

/** The index past an arrow's expression body that starts at `start`. */
function arrowBodyEnd(s: Skimmer, start: number): number {
  let questions = 0;
  let j = start;
  while (j < s.eof) {
    const type = s.type(j);
    if (j > start && s.lineBreakBefore(j) && s.asiBetween(j)) return j;
    if (
      type === tt.comma ||
      type === tt.semi ||
      type === tt.parenR ||
      type === tt.bracketR ||
      type === tt.braceR
    )
      return j;
    if (type === tt.question) questions++;
    if (type === tt.colon) {
      if (questions === 0) return j;
      questions--;
    }
    j =
      type === tt.parenL || type === tt.bracketL || type === tt.braceL || type === tt.dollarBraceL
        ? s.pair(j) + 1
        : j + 1;
  }
  return j;
}
