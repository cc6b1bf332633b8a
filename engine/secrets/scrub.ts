/**
 * Scrubbing: every string that leaves an upstream or the store loses every secret the hub holds
 * before anything else sees it (invariant I1; the set of secrets is hub-secrets.ts's). A secret
 * is replaced in its raw form and in the encodings an API might echo it in: base64 and
 * base64url (standalone, and inside a longer encoded text at each of the three byte alignments,
 * which covers HTTP Basic's `base64(user:token)`), form-encoded (the escapes in either case) and
 * hex (either case). Escapes are undone first (decoded-view.ts): percent escapes (either case,
 * or escaped twice), JSON's (`\"`, `\/`, `\uXXXX` in either case) and HTML's entities, each
 * wherever it stands, so a secret written wholly or partly escaped is found as it reads.
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
import { decodedView } from './decoded-view.ts';

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

/** `secret` form-encoded (application/x-www-form-urlencoded): a space as `+`. */
const formEncoded = (secret: string) => encodeURIComponent(secret).replaceAll('%20', '+');

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
    // Form-encoded, a space as `+` (which the decoded view leaves as it is), the escapes' hex
    // digits in either case. Other percent, JSON and HTML escapes are the decoded view's.
    formEncoded(secret),
    lowerEscapes(formEncoded(secret)),
    h,
    h.toUpperCase(),
  ]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

export interface Scrubber {
  /** The text with every form of every secret replaced by `[secret]`. */
  text(value: string): string;
  /** A JSON-like value with every string (keys included) scrubbed; other values kept. */
  value<T>(value: T): T;
}

/** A scrubber for the given secret values. With no secrets it returns its input unchanged. */
export function createScrubber(secrets: Iterable<string>): Scrubber {
  const values = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const forms = [...new Set(values.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return { text: (value) => value, value: (value) => value };
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const raw = new RegExp(
    values
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  // First the secrets as the text reads with its escapes undone (decoded-view.ts), then every form.
  const text = (value: string) => scrubDecoded(value, raw).replace(pattern, SCRUBBED);
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

/**
 * `text` with every span that reads as a raw secret once its escapes are undone replaced: a secret
 * only partly escaped, in mixed-case or doubled escapes, or in numeric entities.
 */
function scrubDecoded(text: string, raw: RegExp): string {
  // Most texts hold no secret however they are read: look first, and map spans only on a find.
  const look = decodedView(text, false);
  if (!look || look.text.search(raw) < 0) return text;
  const view = decodedView(text);
  if (!view?.from) return text;
  let out = '';
  let at = 0;
  for (const match of view.text.matchAll(raw)) {
    const start = view.from[match.index] ?? 0;
    const end = view.from[match.index + match[0].length] ?? text.length;
    if (start < at) continue;
    out += `${text.slice(at, start)}${SCRUBBED}`;
    at = end;
  }
  return at === 0 ? text : out + text.slice(at);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
