/**
 * The digest of a call's arguments for the call gate: the same bytes as `argsDigest`
 * (engine/digest.ts, SHA-256 of the canonical JSON), computed on the calling thread when the
 * arguments are small. WebCrypto's digest is asynchronous (Node runs it on its thread pool), and
 * for the few hundred bytes a call's arguments usually take, the trip to the pool and back cost
 * far more than hashing them here; large arguments still go to WebCrypto.
 */
import { canonicalJson } from '../canonical-json.ts';
import { sha256Hex } from '../digest.ts';

/** Arguments up to this many UTF-16 code units of canonical JSON are hashed here. */
export const INLINE_DIGEST_CHARS = 4 * 1024;

const encoder = new TextEncoder();

/** The digest of a call's arguments, checked on replay against the journal. */
export function callArgsDigest(args: unknown): string | Promise<string> {
  const text = canonicalJson(args ?? null);
  return text.length <= INLINE_DIGEST_CHARS ? sha256HexSync(encoder.encode(text)) : sha256Hex(text);
}

// biome-ignore format: the table reads best as rows
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The initial hash value (FIPS 180-4, 5.3.3). */
const H0 = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The message schedule and the hash state, reused by every digest (the thread runs one at a time). */
const W = new Int32Array(64);
const H = new Int32Array(8);

/**
 * SHA-256 (FIPS 180-4) of `bytes`, as lowercase hex. The padding (a 1 bit, zeros, the length in
 * bits as a 64-bit big-endian number) is read in place rather than copied into a padded buffer.
 */
export function sha256HexSync(bytes: Uint8Array): string {
  const length = bytes.length;
  const blocks = ((length + 8) >> 6) + 1;
  H.set(H0);
  for (let block = 0; block < blocks; block++) {
    const base = block << 6;
    for (let i = 0; i < 16; i++) {
      let word = 0;
      for (let j = 0; j < 4; j++) {
        const at = base + (i << 2) + j;
        word = (word << 8) | (at < length ? (bytes[at] as number) : at === length ? 0x80 : 0);
      }
      W[i] = word;
    }
    if (block === blocks - 1) {
      W[14] = Math.floor(length / 0x20000000);
      W[15] = length << 3;
    }
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15] as number;
      const b = W[i - 2] as number;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      W[i] = (W[i - 16] as number) + s0 + (W[i - 7] as number) + s1;
    }
    let a = H[0] as number;
    let b = H[1] as number;
    let c = H[2] as number;
    let d = H[3] as number;
    let e = H[4] as number;
    let f = H[5] as number;
    let g = H[6] as number;
    let hh = H[7] as number;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + (K[i] as number) + (W[i] as number)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    H[0] = (H[0] as number) + a;
    H[1] = (H[1] as number) + b;
    H[2] = (H[2] as number) + c;
    H[3] = (H[3] as number) + d;
    H[4] = (H[4] as number) + e;
    H[5] = (H[5] as number) + f;
    H[6] = (H[6] as number) + g;
    H[7] = (H[7] as number) + hh;
  }
  let hex = '';
  for (let i = 0; i < 8; i++) hex += ((H[i] as number) >>> 0).toString(16).padStart(8, '0');
  return hex;
}
