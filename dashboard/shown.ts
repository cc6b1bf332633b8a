/**
 * Text from an upstream or a guest, made fit to show on a page: inert first (engine/inert.ts:
 * control, bidi and invisible characters become visible escapes), then HTML-escaped by JSX when
 * rendered. Arguments are capped at 4 KB of UTF-8, with a marker that says how much was left out.
 */
import { inertLine, inertText } from '../engine/inert.ts';

/** How much of a call's arguments a page shows. */
export const ARGS_SHOWN_BYTES = 4096;

/** One line of upstream or guest text (an address, a reason, a summary). */
export const line = (text: string): string => inertLine(text);

/** True when `text` is longer than a page shows at first (ARGS_SHOWN_BYTES). */
export const argsCut = (text: string): boolean => new TextEncoder().encode(text).length > ARGS_SHOWN_BYTES;

/** Arguments whole, inert: what a page shows on request when the first view was cut. */
export const wholeArgs = (text: string): string => inertText(text);

/** Arguments as recorded (already scrubbed), inert, cut at 4 KB with a marker when longer. */
export function shownArgs(text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= ARGS_SHOWN_BYTES) return inertText(text);
  // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
  const head = new TextDecoder().decode(bytes.slice(0, ARGS_SHOWN_BYTES)).replace(/\uFFFD+$/, '');
  return `${inertText(head)}\n… (cut: the first 4 KB of ${bytes.length} bytes are shown)`;
}
