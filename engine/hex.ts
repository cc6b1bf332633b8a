/**
 * Lowercase hex, the one spelling of bytes in ids, seeds, keys and digests across the engine;
 * unpadded base64url, the spelling of bytes that travel in a URL or a cookie (prompt states,
 * page tokens); and padded base64, the spelling of bytes kept as text (a skill's files).
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

/** `bytes` as padded base64 (RFC 4648 §4). */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of padded base64 text (what `base64` wrote). */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
