/**
 * The first sentence of a tool's description: the line `search` prints under each tool, and the
 * summary field the index weighs above the rest of the description (the first sentence says what
 * a tool does; what follows is usage notes, examples and warnings).
 *
 * Descriptions are written for models by many hands, so this reads them leniently:
 * - markdown goes: code blocks, `code` ticks, **emphasis**, [links](url), headings, list
 *   markers, and pictographs such as 🎯;
 * - leading label lines go (`Purpose:`, `🛡️ Guardrails:`), when more text follows them;
 * - a sentence ends at `.`, `!` or `?` before a space, but not after an abbreviation (`e.g.`,
 *   `i.e.`, `etc.`, `vs.`) nor inside a number or a URL (`v1.2`, `api.example.com`), and it ends
 *   at a line break unless the next line carries on in lowercase (hard-wrapped prose);
 * - the result is one line, at most `max` characters, cut at a word with `…`.
 */

/** Characters read from the start of a description. */
const WINDOW = 1000;

const FENCED = /```[\s\S]*?(?:```|$)/g;
const IMAGE = /!\[([^\]]*)\]\([^)]*\)/g;
const LINK = /\[([^\]]+)\]\([^)]*\)/g;
const EMPHASIS = /(\*\*|__|\*|`)(?=\S)([^\n]*?\S)\1/g;
const PICTOGRAPH = /\p{Extended_Pictographic}|\u{FE0F}|\u{200D}/gu;
const LEADER = /^(?:#{1,6}\s+|>\s*|(?:[-*+•]|\d{1,3}[.)])\s+)+/;
const LABEL = /^[^.!?]{1,40}:$/;
const SHORT_HEADING = /^\S+(?: \S+)?(?<![.!?:])$/;
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|[A-Z])$/i;

/** The first sentence of `description`, one line of at most `max` characters; '' if none. */
export function firstSentence(description: string | undefined, max = 200): string {
  if (description === undefined) return '';
  // The first sentence is near the start; reading a window keeps a 7,000-character description cheap.
  const raw = plain(description.slice(0, WINDOW)).split('\n');
  const lines: string[] = [];
  const line = (i: number): string => (lines[i] ??= clean(raw[i] as string));
  const nextText = (from: number): number => {
    let i = from;
    while (i < raw.length && line(i) === '') i++;
    return i;
  };
  let at = nextText(0);
  // Skip label lines (`Purpose:`, a lone heading word) while there is more to read after them.
  for (let after = nextText(at + 1); at < raw.length && after < raw.length; after = nextText(at + 1)) {
    if (!isLabel(line(at))) break;
    at = after;
  }
  if (at >= raw.length) return '';
  let text = line(at);
  for (let i = at + 1; i < raw.length && !hasEnd(text); i++) {
    const next = line(i);
    if (!/^\p{Ll}/u.test(next)) break;
    text += ` ${next}`;
  }
  return cap(sentenceOf(text), max);
}

/** One line without indentation, list markers or runs of spaces. */
function clean(line: string): string {
  return line.trim().replace(LEADER, '').replace(/\s+/g, ' ');
}

function plain(text: string): string {
  return text
    .replace(FENCED, '\n')
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .replace(EMPHASIS, '$2')
    .replace(PICTOGRAPH, '')
    .replace(/\r\n?/g, '\n');
}

function isLabel(line: string): boolean {
  return LABEL.test(line) || SHORT_HEADING.test(line);
}

function hasEnd(text: string): boolean {
  return sentenceOf(text).length < text.length;
}

/** `text` up to and including its first sentence end, trimmed. */
function sentenceOf(text: string): string {
  const end = /[.!?]+(?=\s|$)/g;
  for (let match = end.exec(text); match !== null; match = end.exec(text)) {
    const before = text.slice(0, match.index);
    if (match[0] === '.' && ABBREVIATION.test(before)) continue;
    return text.slice(0, match.index + match[0].length).trim();
  }
  return text.trim();
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
