/**
 * A text as it reads once its escapes are undone, with where each character came from: the
 * scrubber's second look (scrub.ts). The scrubber's forms are whole encodings, each written one
 * way; an encoder (or a hostile upstream) may escape only some characters of a secret, mix the
 * case of its escapes, or escape twice. Undoing every escape first and then looking for the raw
 * secret catches all of those at once. Undone, left to right, each as one character:
 *
 * - percent escapes `%XX` (either case; `%25XX`, escaped twice, too), runs of them read as UTF-8;
 * - JSON escapes: `\uXXXX` (either case) and `\" \\ \/ \b \f \n \r \t`;
 * - HTML entities: `&#N;`, `&#xN;` (leading zeros, either case) and `&amp; &lt; &gt; &quot; &apos;`.
 *
 * Pure and linear in the text's length. A text with none of `%`, `\` and `&` has nothing to undo.
 */

/**
 * The decoded text, and for its character at `i` where it came from: the span
 * `[from[i], from[i + 1])` of the text (`from` has one more entry, the text's length).
 */
export interface DecodedView {
  text: string;
  /** Absent when the spans were not asked for (a text only looked at, not replaced in). */
  from?: Int32Array;
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const ENTITY = /^&(?:#0*(\d{1,7})|#[xX]0*([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `text` with its escapes undone, and with `spans` where each character came from; undefined when
 * it has none to undo.
 */
export function decodedView(text: string, spans = true): DecodedView | undefined {
  const introducer = /[%\\&]/g;
  if (!introducer.test(text)) return undefined;
  const from = spans ? new Int32Array(text.length + 1) : undefined;
  let out = '';
  let n = 0;
  let i = 0;
  /** Source characters up to `end` as they are, each its own span. */
  const keep = (end: number) => {
    out += text.slice(i, end);
    if (from) for (let k = i; k < end; k++) from[n++] = k;
    i = end;
  };
  /** `chars`, all from the escape at `[start, end)`. */
  const undo = (chars: string, start: number, end: number) => {
    out += chars;
    if (from) for (let k = 0; k < chars.length; k++) from[n++] = start;
    i = end;
  };
  introducer.lastIndex = 0;
  for (let found = introducer.exec(text); found !== null; found = introducer.exec(text)) {
    keep(found.index);
    const c = text.charAt(i);
    if (c === '%') {
      const run = percentRun(text, i);
      if (run) for (const [chars, start, end] of run) undo(chars, start, end);
    } else if (c === '\\') {
      const unit = text.charAt(i + 1) === 'u' ? hexAt(text, i + 2, 4) : -1;
      const short = JSON_ESCAPES[text.charAt(i + 1)];
      if (unit >= 0) undo(String.fromCharCode(unit), i, i + 6);
      else if (short !== undefined) undo(short, i, i + 2);
    } else {
      const entity = ENTITY.exec(text.slice(i, i + 12));
      const code = entity?.[1] ? Number(entity[1]) : entity?.[2] ? Number.parseInt(entity[2], 16) : undefined;
      if (entity && (code === undefined || code <= 0x10ffff)) {
        const chars = code === undefined ? (ENTITIES[entity[3] ?? ''] ?? '') : String.fromCodePoint(code);
        undo(chars, i, i + entity[0].length);
      }
    }
    // Not an escape after all: the introducer stays as it is.
    if (i === found.index) keep(i + 1);
    introducer.lastIndex = i;
  }
  keep(text.length);
  if (!from) return { text: out };
  from[n] = text.length;
  return { text: out, from: from.subarray(0, n + 1) };
}

/**
 * The percent escapes starting at `start`, read as UTF-8: each character with the span of the
 * escapes it came from. Bytes that are no UTF-8 are kept as they were written (undefined: not an
 * escape at all).
 */
function percentRun(text: string, start: number): [string, number, number][] | undefined {
  const bytes: number[] = [];
  const ends: number[] = [];
  let at = start;
  while (text.charAt(at) === '%') {
    // `%25XX` is `%XX` escaped again: the byte is XX.
    const twice = text.startsWith('25', at + 1) ? hexAt(text, at + 3, 2) : -1;
    const byte = twice >= 0 ? twice : hexAt(text, at + 1, 2);
    if (byte < 0) break;
    bytes.push(byte);
    at += twice >= 0 ? 5 : 3;
    ends.push(at);
  }
  if (bytes.length === 0) return undefined;
  const chars: [string, number, number][] = [];
  let index = 0;
  let from = start;
  while (index < bytes.length) {
    const first = bytes[index] ?? 0;
    const length = first < 0x80 ? 1 : first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
    const end = ends[Math.min(index + length, bytes.length) - 1] ?? at;
    let decoded: string | undefined;
    if (length === 1 && first < 0x80) decoded = String.fromCharCode(first);
    else {
      try {
        decoded = utf8.decode(new Uint8Array(bytes.slice(index, index + length)));
      } catch {
        decoded = undefined;
      }
    }
    if (decoded === undefined || index + length > bytes.length) {
      // Not UTF-8: this escape stays as it was written.
      const own = ends[index] ?? at;
      chars.push([text.slice(from, own), from, own]);
      from = own;
      index += 1;
      continue;
    }
    chars.push([decoded, from, end]);
    from = end;
    index += length;
  }
  return chars;
}

/** The number the `digits` hex digits (either case) at `index` write; -1 when they are not all hex. */
function hexAt(text: string, index: number, digits: number): number {
  let value = 0;
  for (let k = index; k < index + digits; k++) {
    const code = text.charCodeAt(k);
    const digit =
      code >= 48 && code <= 57
        ? code - 48
        : code >= 97 && code <= 102
          ? code - 87
          : code >= 65 && code <= 70
            ? code - 55
            : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}
