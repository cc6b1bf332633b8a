/**
 * Inert text: a string from an upstream (tool names and descriptions, results, error messages,
 * stderr) or from guest code (logs, results, errors), made safe to show a person. A terminal acts
 * on control characters (ESC starts sequences that clear the screen, move the cursor, conceal
 * text or open hyperlinks; CR and backspace overwrite what was shown; a lone 8-bit CSI, U+009B,
 * does what `ESC [` does), and bidi controls reorder what a person reads ("Trojan Source",
 * CVE-2021-42574). Inert, each such character becomes a visible escape that names it exactly
 * (`\x1b`, `\u202e`), so what it would have hidden or done shows instead.
 *
 * Escaped: every control character (C0 but TAB, then DEL and C1: Unicode Cc), every format
 * character (Cf: bidi embeddings, overrides, isolates and marks, zero-width space, word joiner,
 * soft hyphen, BOM, the invisible tags U+E0000–U+E007F that smuggle text past a reader…), and the
 * line and paragraph separators U+2028/U+2029 (Zl, Zp). Kept: TAB; LF only in multi-line text;
 * ZWNJ and ZWJ (U+200C, U+200D), which emoji and several scripts need and which hide nothing.
 *
 * The backslash is not escaped: inert text is for reading, never parsed back; doubling every
 * backslash would garble Windows paths and the JSON we show, and a literal `\x1b` drives nothing.
 * That also makes each function idempotent, so a field made inert can be made inert again whole.
 *
 * Pure and runtime-neutral: the CLI shows everything through it, and pages will apply the same
 * rule before HTML escaping.
 */

/** What a terminal acts on or a person cannot see (see above), but TAB, ZWNJ and ZWJ. */
const UNSAFE = /(?![\t\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' };

/** `\n` and `\r`; else `\xhh` up to U+00FF, `\uhhhh` to U+FFFF, `\u{hhhhh}` beyond. */
function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\u{${hex}}`;
}

/** `\uhhhh` per UTF-16 code unit (a surrogate pair beyond U+FFFF), as JSON writes it. */
function jsonEscape(char: string): string {
  let escaped = '';
  for (let i = 0; i < char.length; i++) escaped += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
}

/**
 * One line: every unsafe character escaped, LF and CR included, so the text cannot forge a line
 * of the output it is printed in. For fields: a log line, a summary, an error message, a name.
 */
export function inertLine(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** Several lines: as `inertLine`, but LF stays a line break. For a whole text we print. */
export function inertText(text: string): string {
  return text.replace(UNSAFE, (char) => (char === '\n' ? char : visible(char)));
}

/**
 * JSON text as `JSON.stringify` writes it, with what that leaves raw (DEL, C1, format characters,
 * U+2028/U+2029) escaped as `\uhhhh`: still valid JSON, and it parses back to the same value.
 * JSON.stringify escapes C0 inside strings, and writes only LF and spaces outside them.
 */
export function inertJson(json: string): string {
  return json.replace(UNSAFE, (char) => (char === '\n' ? char : jsonEscape(char)));
}
