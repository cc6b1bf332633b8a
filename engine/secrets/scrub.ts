/**
 * Scrubbing: every string that comes back from a call on a connection loses the secret before
 * anything else sees it (invariant I1). A secret is replaced in its raw form and in the
 * encodings an API might echo it in: base64, base64url, URL-encoded, hex (either case), and
 * JSON-escaped (a secret with a quote or a slash, seen inside a JSON text). Base64 of a longer
 * string (`Basic base64(user:token)`) is not caught unless aligned; the raw form is.
 *
 * Pure: no I/O, no clock. A reviewer can read this file in one sitting.
 */
import { hex } from '../hex.ts';

export const SCRUBBED = '[secret]';

/** Secrets shorter than this are not scrubbed: replacing "a" everywhere would destroy results. */
export const MIN_SECRET_LENGTH = 4;

const encoder = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Every form of `secret` that is scrubbed, longest first (so a longer form wins over a prefix). */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const bytes = encoder.encode(secret);
  const b64 = base64(bytes);
  const unpadded = b64.replace(/=+$/, '');
  const b64url = unpadded.replaceAll('+', '-').replaceAll('/', '_');
  const h = hex(bytes);
  const forms = new Set([
    secret,
    b64,
    unpadded,
    b64url,
    encodeURIComponent(secret),
    encodeURI(secret),
    encodeURIComponent(secret).replaceAll('%20', '+'),
    h,
    h.toUpperCase(),
    // As it appears inside a JSON string: escaped quotes, backslashes and control characters,
    // and the `\/` some serializers write for `/`.
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
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
  const forms = [...new Set([...secrets].flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return { text: (value) => value, value: (value) => value };
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const text = (value: string) => value.replace(pattern, SCRUBBED);
  const value = <T>(input: T): T => scrubValue(input, text) as T;
  return { text, value };
}

function scrubValue(input: unknown, text: (s: string) => string): unknown {
  if (typeof input === 'string') return text(input);
  if (Array.isArray(input)) return input.map((item) => scrubValue(item, text));
  if (input !== null && typeof input === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input)) out[text(key)] = scrubValue(item, text);
    return out;
  }
  return input;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
