/**
 * Prints the type model as TypeScript. Output is valid TypeScript for any input model: unions
 * are parenthesized where precedence needs it (`(A | B)[]`, `(A | B) & C`, `[(A | B)?]`), property
 * names that are not identifiers are quoted, literals and comments are escaped.
 *
 * A named type is inlined when it may be (an inner type, not recursive, met at a depth below
 * `limit`) and printed by name otherwise; each name printed is reported through `reference` with
 * how many more levels the answer may still show of it, so the caller can declare it. In `line`
 * mode (search's signature line) everything is on one line, nested objects are `{…}` and long
 * unions are cut (their members past the cut are never printed).
 *
 * With a `budget` (print-budget.ts) printing charges what it writes and stops with OverBudget
 * once past it, so a schema whose references multiply its size cannot make printing unbounded.
 */
import { type DocMode, docLines, jsdoc } from './jsdoc.ts';
import type { PrintBudget } from './print-budget.ts';
import { commentText, propertyKey, stringLiteral } from './syntax.ts';
import type { NamedType, ObjectType, TsType } from './ts-type.ts';

export interface PrintOptions {
  /** Inner types met at a depth below this are printed in place; deeper ones by name. */
  limit: number;
  docs: DocMode;
  /** Prefix of a printed name: `github.` outside the namespace's own block, empty inside it. */
  qualifier: string;
  /** One line: no JSDoc, nested objects as `{…}`, unions past four members cut. */
  line: boolean;
  /** Called for each type printed by name, with the levels still to show of it (<= 0: none). */
  reference(node: NamedType, remaining: number): void;
  /** Charged for what is printed; printing stops with OverBudget past it. None: unbounded. */
  budget?: PrintBudget | undefined;
}

/** How tightly a printed type binds: a union member, an intersection member, or anything else. */
type Precedence = 0 | 1 | 2;
interface Printed {
  text: string;
  precedence: Precedence;
}

/** Objects whose members and docs fit on one line up to this length print on one line. */
const ONE_LINE_MAX = 100;
/** In line mode, unions longer than this show their first members and `…`. */
const LINE_UNION_MAX = 4;

const primary = (text: string): Printed => ({ text, precedence: 2 });
/** A leaf's text, charged to the budget (it is part of the output, whatever encloses it). */
const leaf = (options: PrintOptions, text: string): Printed => {
  options.budget?.spend(text.length);
  return primary(text);
};
const wrap = (printed: Printed, min: Precedence) =>
  printed.precedence >= min ? printed.text : `(${printed.text})`;

/** The type at `depth` (objects entered so far), its object members indented one step past `indent`. */
export function printType(
  type: TsType,
  options: PrintOptions,
  depth = 0,
  indent = '',
  stack: Set<NamedType> = new Set(),
): Printed {
  const print = (t: TsType) => printType(t, options, depth, indent, stack);
  options.budget?.step();
  switch (type.kind) {
    case 'keyword':
      return leaf(options, type.name);
    case 'literal':
      return leaf(options, typeof type.value === 'string' ? stringLiteral(type.value) : String(type.value));
    case 'loose':
      return leaf(options, options.line ? 'unknown' : `unknown /* ${commentText(type.reason)} */`);
    case 'array':
      return primary(`${wrap(print(type.element), 2)}[]`);
    case 'tuple': {
      const elements = type.elements.map((e) =>
        e.optional ? `${wrap(print(e.type), 2)}?` : print(e.type).text,
      );
      if (type.rest !== undefined) elements.push(`...${wrap(print(type.rest), 2)}[]`);
      return primary(`[${elements.join(', ')}]`);
    }
    case 'union': {
      const cut = options.line && type.members.length > LINE_UNION_MAX;
      const shown = cut ? type.members.slice(0, LINE_UNION_MAX - 1) : type.members;
      const members = shown.map((m) => print(m).text); // nothing binds looser than `|`
      if (cut) members.push('…');
      return { text: members.join(' | '), precedence: 0 };
    }
    case 'intersection':
      return { text: type.members.map((m) => wrap(print(m), 1)).join(' & '), precedence: 1 };
    case 'object':
      return primary(printObject(type, options, depth, indent, stack));
    case 'named':
      return printNamed(type.target, options, depth, indent, stack);
  }
}

function printNamed(
  node: NamedType,
  options: PrintOptions,
  depth: number,
  indent: string,
  stack: Set<NamedType>,
): Printed {
  const inner = node.origin === 'inner' && !node.recursive && !stack.has(node);
  if (inner && (depth < options.limit || (options.line && !isObjectLike(node.type)))) {
    stack.add(node);
    const printed = printType(node.type, options, depth, indent, stack);
    stack.delete(node);
    return printed;
  }
  if (inner && options.line) return leaf(options, '{…}');
  options.reference(node, options.limit - depth);
  return leaf(options, `${options.qualifier}${node.name}`);
}

function isObjectLike(type: TsType, seen: ReadonlySet<NamedType> = new Set()): boolean {
  switch (type.kind) {
    case 'object':
      return true;
    case 'named':
      return !seen.has(type.target) && isObjectLike(type.target.type, new Set([...seen, type.target]));
    case 'union':
    case 'intersection':
      return type.members.some((m) => isObjectLike(m, seen));
    default:
      return false;
  }
}

/** The members of an object, each `name?: type` with its JSDoc lines, index signature last. */
export function printMembers(
  object: ObjectType,
  options: PrintOptions,
  depth: number,
  indent: string,
  stack: Set<NamedType>,
): { doc: string[]; text: string }[] {
  return [...eachMember(object, options, depth, indent, stack)];
}

/** The members of an object as printMembers prints them, one at a time (a caller may stop early). */
export function* eachMember(
  object: ObjectType,
  options: PrintOptions,
  depth: number,
  indent: string,
  stack: Set<NamedType>,
): Generator<{ doc: string[]; text: string }> {
  const inner = `${indent}\t`;
  for (const m of object.members) {
    const doc = options.line ? [] : docLines(m.doc, options.docs);
    const key = `${propertyKey(m.name)}${m.optional ? '?' : ''}: `;
    charge(options, key, doc);
    yield { doc, text: `${key}${printType(m.type, options, depth + 1, inner, stack).text}` };
  }
  if (object.index !== undefined) {
    const patterns = object.index.patterns ?? [];
    const doc =
      options.line || patterns.length === 0
        ? []
        : [`Keys matching ${patterns.map((p) => `/${p}/`).join(', ')}`];
    charge(options, '[key: string]: ', doc);
    yield {
      doc,
      text: `[key: string]: ${printType(object.index.type, options, depth + 1, inner, stack).text}`,
    };
  }
}

/** Charges a member's key and JSDoc lines, which the output holds. */
function charge(options: PrintOptions, key: string, doc: readonly string[]): void {
  if (options.budget === undefined) return;
  let chars = key.length;
  for (const line of doc) chars += line.length;
  options.budget.spend(chars);
}

/** An object type no value but `{}` satisfies. */
export function isEmpty(object: ObjectType): boolean {
  const index = object.index?.type;
  return object.members.length === 0 && index?.kind === 'keyword' && index.name === 'never';
}

function printObject(
  object: ObjectType,
  options: PrintOptions,
  depth: number,
  indent: string,
  stack: Set<NamedType>,
): string {
  // On a summary line, an object that can have no members at all reads best as what it is: empty.
  if (options.line && isEmpty(object)) return '{}';
  const members = printMembers(object, options, depth, indent, stack);
  if (members.length === 0) return '{}';
  const flat = `{ ${members.map((m) => m.text).join('; ')} }`;
  const simple = members.every((m) => m.doc.length === 0 && !m.text.includes('\n'));
  if (options.line || (simple && flat.length <= ONE_LINE_MAX)) return flat;
  const inner = `${indent}\t`;
  const body = members.map((m) => `${jsdoc(m.doc, inner)}${inner}${m.text};\n`).join('');
  return `{\n${body}${indent}}`;
}
