/**
 * JSDoc for declarations: a property's or a tool's description, `@default`, `@format`,
 * `@deprecated`, and the `@returns` line of a tool without an output schema. Three modes, for
 * when the budget needs the room: `full` keeps every line of a description; `brief` keeps its
 * first sentence, cut to a length; `terse` keeps a tool's first sentence and no property docs.
 */
import { escapeCommentEnd, lines } from './syntax.ts';
import type { Doc } from './ts-type.ts';

export type DocMode = 'full' | 'brief' | 'terse';

/** Longest first sentence kept in brief mode, for a tool and for a property. */
const BRIEF_TOOL = 160;
const BRIEF_PROPERTY = 100;
/** A `@default` longer than this is cut (it is a hint, not a contract). */
const DEFAULT_MAX = 80;

/** The first sentence (or first line) of `text`, at most `max` characters, cut at a word. */
export function firstSentence(text: string, max: number): string {
  const line = lines(text.trim()).find((l) => l.trim() !== '') ?? '';
  const sentence = /^.*?[.!?](?=\s+\P{Ll}|\s*$)/u.exec(line)?.[0] ?? line;
  return cut(sentence.trim(), max);
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** A description's lines: trailing blanks gone, runs of blank lines made one, none at either end. */
function descriptionLines(description: string): string[] {
  const result: string[] = [];
  for (const line of lines(description)) {
    if (line.trim() === '' && (result.length === 0 || result.at(-1) === '')) continue;
    result.push(line);
  }
  while (result.at(-1) === '') result.pop();
  return result;
}

/** The JSDoc lines for a property or declaration (before escaping). */
export function docLines(
  doc: Doc | undefined,
  mode: DocMode,
  kind: 'tool' | 'property' = 'property',
): string[] {
  if (doc === undefined || (mode === 'terse' && kind === 'property')) return [];
  const out: string[] = [];
  if (doc.description !== undefined) {
    if (mode === 'full') out.push(...descriptionLines(doc.description));
    else out.push(firstSentence(doc.description, kind === 'tool' ? BRIEF_TOOL : BRIEF_PROPERTY));
  }
  if (doc.deprecated) out.push('@deprecated');
  if (doc.default !== undefined) out.push(`@default ${cut(JSON.stringify(doc.default), DEFAULT_MAX)}`);
  if (doc.format !== undefined) out.push(`@format ${doc.format}`);
  return out;
}

/** A JSDoc block at `indent`, ending in a newline; empty when there are no lines. */
export function jsdoc(docLines: readonly string[], indent: string): string {
  const safe = docLines.map(escapeCommentEnd);
  if (safe.length === 0) return '';
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  const body = safe.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n');
  return `${indent}/**\n${body}\n${indent} */\n`;
}
