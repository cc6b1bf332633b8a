/**
 * Web Push message encryption (RFC 8291, the `aes128gcm` content coding of RFC 8188) and the
 * VAPID authorization header (RFC 8292), on Web Crypto alone, so the same code runs in workerd
 * and Node. Written here rather than taken from npm: the packages that run on Web Crypto either
 * still speak the older `aesgcm` draft coding or draw the salt and the sender's key inside with
 * no seam, so RFC 8291's own example (section 5) could not be run against them; this file takes
 * both as inputs, and test/engine/web-push.test.ts checks the example byte for byte.
 *
 * Pure: no store, no network; the clock is passed in.
 */
import { base64url } from '../hex.ts';

const encoder = new TextEncoder();

/** Web Crypto's key types, named from the functions (Node's types declare `WebCryptoKey` as a value). */
export type WebCryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
export interface WebCryptoKeyPair {
  privateKey: WebCryptoKey;
  publicKey: WebCryptoKey;
}
/**
 * ECDH's parameters with the other side's key. workers-types spells the member `$public` (a
 * generator's escape); the runtime reads `public`, as Web Crypto says.
 */
export const ecdh = (key: WebCryptoKey) =>
  ({ name: 'ECDH', public: key }) as unknown as Parameters<typeof crypto.subtle.deriveBits>[0];

/** The parts of a P-256 JWK this file reads and writes. */
export interface Jwk {
  kty: string;
  crv?: string;
  d?: string;
  x?: string;
  y?: string;
}

/** The record size we declare: one record, as RFC 8291 §4 asks of push messages (4096 at most). */
export const RECORD_SIZE = 4096;

/** The most plaintext octets one message carries: 4096 less the header, the delimiter and the tag. */
export const MAX_PLAINTEXT = RECORD_SIZE - 86 - 1 - 16;

/** The bytes of unpadded (or padded) base64url text. */
export function fromBase64url(text: string): Uint8Array {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const buffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', buffer(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, buffer(data)));
}

/** HKDF (RFC 5869) with SHA-256, for at most 32 octets: one expand round. */
async function hkdf(
  salt: Uint8Array,
  ikm: Uint8Array,
  info: Uint8Array,
  length: number,
): Promise<Uint8Array> {
  const prk = await hmac(salt, ikm);
  return (await hmac(prk, concat(info, new Uint8Array([1])))).slice(0, length);
}

/** A P-256 point as the uncompressed 65 octets (0x04, x, y) a subscription's `p256dh` holds. */
export async function publicPoint(key: WebCryptoKey): Promise<Uint8Array> {
  return new Uint8Array((await crypto.subtle.exportKey('raw', key)) as ArrayBuffer);
}

/** The JWK of a P-256 key from its uncompressed point and, for a private key, its scalar. */
function p256Jwk(point: Uint8Array, scalar?: Uint8Array): Jwk {
  if (point.length !== 65 || point[0] !== 4) throw new Error('a P-256 public key is 65 octets, 0x04 first');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: base64url(point.subarray(1, 33)),
    y: base64url(point.subarray(33)),
    ...(scalar ? { d: base64url(scalar) } : {}),
  };
}

/** An ECDH P-256 key pair from its published parts (RFC 8291's example gives them so). */
export async function importEcdhKeyPair(scalar: Uint8Array, point: Uint8Array): Promise<WebCryptoKeyPair> {
  const algorithm = { name: 'ECDH', namedCurve: 'P-256' };
  const privateKey = await crypto.subtle.importKey('jwk', p256Jwk(point, scalar), algorithm, true, [
    'deriveBits',
  ]);
  const publicKey = await crypto.subtle.importKey('jwk', p256Jwk(point), algorithm, true, []);
  return { privateKey, publicKey };
}

export interface PushEncryption {
  /** The subscription's `p256dh`: the user agent's public key, 65 octets. */
  receiverPublic: Uint8Array;
  /** The subscription's `auth`: 16 octets. */
  authSecret: Uint8Array;
  plaintext: Uint8Array;
  /** 16 random octets unless given (the RFC's example gives its own). */
  salt?: Uint8Array;
  /** The application server's one-time ECDH key pair unless given. */
  sender?: WebCryptoKeyPair;
}

/**
 * The body of one push message (RFC 8291 §3.4, §4): the RFC 8188 header (salt, record size,
 * the sender's public key as the key id) and one record, the plaintext then the 0x02 delimiter
 * of a last record, sealed with AES-128-GCM.
 */
export async function encryptPushBody(input: PushEncryption): Promise<Uint8Array> {
  if (input.plaintext.length > MAX_PLAINTEXT)
    throw new Error(`a push message carries ${MAX_PLAINTEXT} octets at most`);
  if (input.authSecret.length !== 16) throw new Error('a subscription auth secret is 16 octets');
  const salt = input.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const sender =
    input.sender ??
    ((await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ])) as WebCryptoKeyPair);
  const receiver = await crypto.subtle.importKey(
    'jwk',
    p256Jwk(input.receiverPublic),
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const shared = new Uint8Array(await crypto.subtle.deriveBits(ecdh(receiver), sender.privateKey, 256));
  const senderPublic = await publicPoint(sender.publicKey);
  // §3.3: the key info binds both public keys; §3.4: IKM from the auth secret, then CEK and nonce.
  const keyInfo = concat(encoder.encode('WebPush: info\0'), input.receiverPublic, senderPublic);
  const ikm = await hkdf(input.authSecret, shared, keyInfo, 32);
  const cek = await hkdf(salt, ikm, encoder.encode('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, encoder.encode('Content-Encoding: nonce\0'), 12);
  const key = await crypto.subtle.importKey('raw', buffer(cek), 'AES-GCM', false, ['encrypt']);
  const record = concat(input.plaintext, new Uint8Array([2]));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: buffer(nonce) }, key, record),
  );
  const header = new Uint8Array(21);
  header.set(salt, 0);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = senderPublic.length;
  return concat(header, senderPublic, sealed);
}

/** How long a VAPID token lives: RFC 8292 §2 allows at most 24 hours; we sign for 12. */
export const VAPID_LIFETIME_SECONDS = 12 * 60 * 60;

export interface VapidKeys {
  /** ECDSA P-256, for signing. */
  privateKey: WebCryptoKey;
  /** The public key's uncompressed point: `applicationServerKey` in the browser, `k=` here. */
  publicPoint: Uint8Array;
}

/** The VAPID keys from their JWK (`d`, `x`, `y`): the form the hub keeps them in (vapid-keys.ts). */
export async function importVapidKeys(jwk: Jwk): Promise<VapidKeys> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y) {
    throw new Error('a VAPID key is a P-256 private key as JWK (kty EC, crv P-256, d, x, y)');
  }
  const { kty, crv, d, x, y } = jwk;
  const privateKey = await crypto.subtle.importKey(
    'jwk',
    { kty, crv, d, x, y },
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  return { privateKey, publicPoint: concat(new Uint8Array([4]), fromBase64url(x), fromBase64url(y)) };
}

/** A fresh VAPID key pair as the JWK to keep (vapid-keys.ts makes one per hub). */
export async function generateVapidJwk(): Promise<Jwk> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as WebCryptoKeyPair;
  const { kty, crv, d, x, y } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Jwk;
  return { kty, crv, d, x, y };
}

/**
 * The `Authorization` header for one push request (RFC 8292 §2, §3): an ES256 JWT whose `aud` is
 * the push service's origin, `exp` within 24 hours, `sub` a contact (mailto: or https:), and
 * the public key as `k`.
 */
export async function vapidAuthorization(
  endpoint: string,
  subject: string,
  keys: VapidKeys,
  nowMs: number,
): Promise<string> {
  const json = (value: object) => base64url(encoder.encode(JSON.stringify(value)));
  const claims = {
    aud: new URL(endpoint).origin,
    exp: Math.floor(nowMs / 1000) + VAPID_LIFETIME_SECONDS,
    sub: subject,
  };
  const signing = `${json({ typ: 'JWT', alg: 'ES256' })}.${json(claims)}`;
  // Web Crypto's ECDSA signature is already JOSE's r || s (64 octets), as RFC 7518 §3.4 asks.
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    keys.privateKey,
    encoder.encode(signing),
  );
  return `vapid t=${signing}.${base64url(new Uint8Array(signature))}, k=${base64url(keys.publicPoint)}`;
}
