/**
 * Proof that a server on loopback is this hub's own: it answers a caller's fresh nonce with
 * HMAC-SHA256 under the hub's bearer token, which only the hub's processes (the person's own
 * account) can read. A hub id alone proves nothing: `/healthz` says it to anyone, so a program
 * that took a dead page host's port could claim it and be handed a page link.
 */
import { hex } from './hex.ts';

const LABEL = 'capabilities host proof v1\n';
/** A nonce is 16 to 64 URL-safe characters; anything else gets no proof. */
export const NONCE_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/** The proof for `nonce` under `token`: lowercase hex HMAC-SHA256. */
export async function hostProof(token: string, nonce: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(token),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(LABEL + nonce));
  return hex(new Uint8Array(mac));
}
