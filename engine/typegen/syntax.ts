/**
 * TypeScript lexical details: when a property name needs quotes, how a string becomes a literal
 * type, and how arbitrary text is made safe inside a comment. Text from a manifest is untrusted:
 * nothing in it may end a comment, a string or a line early.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True for names usable bare as a property name or a type name. */
function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A string literal: JSON's escaping, plus the two line separators JSON leaves raw. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029');
}

/** A property name as written in a type: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : stringLiteral(name);
}

/** Text safe inside a block comment on one line: no `*\/`, every line break a space. */
export function commentText(text: string): string {
  return escapeCommentEnd(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' '));
}

/** Keeps `*\/` in text from closing the comment it sits in. */
export function escapeCommentEnd(text: string): string {
  return text.replaceAll('*/', '*\\/');
}

/** Text split into lines at any line terminator, each without trailing blanks. */
export function lines(text: string): string[] {
  return text.split(/\r\n|[\r\n\u2028\u2029]/).map((line) => line.trimEnd());
}
