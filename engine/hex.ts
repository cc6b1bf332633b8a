/**
 * Lowercase hex, the one spelling of bytes in ids, seeds, keys and digests across the engine;
 * and unpadded base64url, the spelling of bytes that travel in a URL or a cookie (prompt
 * states, page tokens).
 */
import type { Random } from './ports.ts';

/** `bytes` as lowercase hex, two digits per byte. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh id: `prefix_` and `byteCount` random bytes in hex (`run_9f…`, `pending_…`). */
export function randomId(random: Random, prefix: string, byteCount: number): string {
  return `${prefix}_${hex(random.bytes(byteCount))}`;
}

/** `bytes` as unpadded base64url (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
