/**
 * Scrubbing: every string that leaves an upstream or the store loses every secret the hub holds
 * before anything else sees it (invariant I1; the set of secrets is hub-secrets.ts's). A secret
 * is replaced in its raw form and in the encodings an API might echo it in: base64 and
 * base64url (standalone, and inside a longer encoded text at each of the three byte alignments,
 * which covers HTTP Basic's `base64(user:token)`), URL- and form-encoded (the escapes in either
 * case), hex (either case), JSON-escaped (a secret with a quote or a slash, seen inside a JSON
 * text) and HTML-escaped (one with `&`, `<`, `>` or a quote, seen inside an HTML page).
 *
 * Inside a longer base64 text only the characters the secret's bytes alone decide are replaced;
 * the one or two characters at each end that mix in a neighbouring byte stay. With the
 * neighbouring bytes known (the `user:` of HTTP Basic), they give away up to two bytes at each
 * end of the secret, never the rest of it.
 *
 * Pure: no I/O, no clock. A reviewer can read this file in one sitting.
 */
import { hex } from '../hex.ts';
import { setOwn } from '../own-property.ts';

export const SCRUBBED = '[secret]';

/** Secrets shorter than this are not scrubbed: replacing "a" everywhere would destroy results. */
export const MIN_SECRET_LENGTH = 4;

/**
 * The shortest piece of a longer base64 text replaced as a secret: shorter pieces of real
 * secrets would also match unrelated base64 (a 4-character piece appears by chance in any
 * few kilobytes of it).
 */
export const MIN_ALIGNED_LENGTH = 8;

const encoder = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `text` with the hex digits of each percent escape in lower case (`%2F` becomes `%2f`). */
const lowerEscapes = (text: string) => text.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());

/**
 * `secret` as an HTML page quotes it (an upstream's error page): `&`, `<` and `>` as entities, and
 * each quote as any of the entities encoders write for it.
 */
function htmlForms(secret: string): string[] {
  const escaped = secret.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return ['&quot;', '&#34;', '&#x22;'].flatMap((quote) =>
    ['&#39;', '&#x27;', '&apos;'].map((apostrophe) =>
      escaped.replaceAll('"', quote).replaceAll("'", apostrophe),
    ),
  );
}

const toBase64url = (b64: string) => b64.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');

/**
 * The base64 characters that encode `bytes` wherever they sit in a longer text whose bytes
 * before them number `offset` modulo 3: the whole 4-character groups made of their bytes alone.
 */
function alignedBase64(bytes: Uint8Array, offset: 0 | 1 | 2): string {
  const padded = new Uint8Array(offset + bytes.length);
  padded.set(bytes, offset);
  const groups = Math.floor(padded.length / 3);
  // A group holding a byte of the pad (the first, when offset > 0) depends on what precedes.
  const first = offset === 0 ? 0 : 1;
  return groups > first ? base64(padded).slice(first * 4, groups * 4) : '';
}

/** Every form of `secret` that is scrubbed, longest first (so a longer form wins over a prefix). */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const bytes = encoder.encode(secret);
  const b64 = base64(bytes);
  const h = hex(bytes);
  const aligned = ([0, 1, 2] as const)
    .map((offset) => alignedBase64(bytes, offset))
    .filter((piece) => piece.length >= MIN_ALIGNED_LENGTH);
  const forms = new Set([
    secret,
    b64,
    b64.replace(/=+$/, ''),
    toBase64url(b64),
    ...aligned,
    ...aligned.map(toBase64url),
    // Percent-encoded, with the escapes' hex digits in upper case (as JavaScript writes them) and
    // in lower case (as other encoders do; RFC 3986, 2.1 says both mean the same).
    ...[
      encodeURIComponent(secret),
      encodeURI(secret),
      encodeURIComponent(secret).replaceAll('%20', '+'),
    ].flatMap((encoded) => [encoded, lowerEscapes(encoded)]),
    h,
    h.toUpperCase(),
    // As it appears inside a JSON string: escaped quotes, backslashes and control characters,
    // and the `\/` some serializers write for `/`.
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
    // Every UTF-16 unit as a `\uXXXX` escape, which JSON.parse turns back into the secret.
    unicodeEscaped(secret),
    unicodeEscaped(secret).toUpperCase().replaceAll('\\U', '\\u'),
    ...htmlForms(secret),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every UTF-16 unit written as a JSON `\uXXXX` escape, hex digits in lower case. */
function unicodeEscaped(text: string): string {
  let escaped = '';
  for (let i = 0; i < text.length; i++) escaped += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
}

export interface Scrubber {
  /** The text with every form of every secret replaced by `[secret]`. */
  text(value: string): string;
  /** A JSON-like value with every string (keys included) scrubbed; other values kept. */
  value<T>(value: T): T;
}

/** A scrubber for the given secret values. With no secrets it returns its input unchanged. */
export function createScrubber(secrets: Iterable<string>): Scrubber {
  const forms = [...new Set([...secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return { text: (value) => value, value: (value) => value };
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const text = (value: string) => value.replace(pattern, SCRUBBED);
  const value = <T>(input: T): T => scrubValue(input, text) as T;
  return { text, value };
}

/**
 * `input` with every string (keys included) passed through `text`. Iterative, not recursive: a
 * value nested thousands deep (which JSON.parse accepts from a guest or an upstream) must not
 * overflow the stack here and leave a run half recorded.
 */
function scrubValue(input: unknown, text: (s: string) => string): unknown {
  if (typeof input === 'string') return text(input);
  if (input === null || typeof input !== 'object') return input;
  const root: { value: unknown } = { value: undefined };
  const work: { from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }[] = [
    { from: input, into: root as unknown as Record<string, unknown>, key: 'value' },
  ];
  while (work.length > 0) {
    const { from, into, key } = work.pop() as (typeof work)[number];
    let copy: unknown;
    if (typeof from === 'string') copy = text(from);
    else if (Array.isArray(from)) {
      const list: unknown[] = new Array(from.length);
      for (let i = 0; i < from.length; i++) work.push({ from: from[i], into: list, key: i });
      copy = list;
    } else if (from !== null && typeof from === 'object') {
      const record: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(from)) {
        const clean = text(name);
        setOwn(record, clean, undefined); // keeps the key order; the value is filled in when its turn comes
        work.push({ from: item, into: record, key: clean });
      }
      copy = record;
    } else copy = from;
    setOwn(into as Record<string | number, unknown>, key, copy);
  }
  return root.value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
