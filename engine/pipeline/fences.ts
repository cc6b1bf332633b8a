/**
 * Markdown fences around the code: models often send ```js … ``` instead of bare code. When the
 * code opens with a fence, only the fenced body runs. Every other line becomes empty rather than
 * disappearing, so line N of what runs is still line N of what the model sent, and positions in
 * errors need no mapping.
 */

/** The tags a fence may carry; anything else is another language and is refused. */
const TAGS: ReadonlySet<string> = new Set(['', 'js', 'javascript', 'ts', 'typescript']);

const OPENING = /^[ \t]*```[ \t]*([A-Za-z0-9_+-]*)[ \t\r]*$/;
const CLOSING = /^[ \t]*```[ \t\r]*$/;

export type Unfenced =
  | { kind: 'bare' }
  | { kind: 'fenced'; code: string; tag: string; ignoredLines: number }
  | { kind: 'other-language'; tag: string };

/**
 * The body of the fenced block the code opens with, line-aligned with the original. Code that
 * does not start with a fence (after blank lines) is `bare` and left alone, so a template
 * literal that happens to hold a fence further down is never touched.
 */
export function unfence(source: string): Unfenced {
  const lines = source.split('\n');
  const open = lines.findIndex((line) => line.trim() !== '');
  const opening = open >= 0 ? OPENING.exec(lines[open] ?? '') : null;
  if (!opening) return { kind: 'bare' };
  const tag = (opening[1] ?? '').toLowerCase();
  if (!TAGS.has(tag)) return { kind: 'other-language', tag };

  let close = lines.findIndex((line, i) => i > open && CLOSING.test(line));
  if (close < 0) close = lines.length; // an unclosed fence: the rest is the body
  const ignoredLines = lines.slice(close + 1).filter((line) => line.trim() !== '').length;
  const code = lines.map((line, i) => (i > open && i < close ? line : '')).join('\n');
  return { kind: 'fenced', code, tag, ignoredLines };
}
