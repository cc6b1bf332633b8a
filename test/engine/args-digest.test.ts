/**
 * The call gate hashes small arguments on its own thread; the digest must be the very bytes
 * WebCrypto gives (`argsDigest`), or a resumed run would diverge on every journaled call.
 */
import { describe, expect, it } from 'vitest';
import { argsDigest, sha256Hex } from '../../engine/digest.ts';
import { callArgsDigest, INLINE_DIGEST_CHARS, sha256HexSync } from '../../engine/runs/args-digest.ts';

const encoder = new TextEncoder();

describe('sha256HexSync', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256HexSync(encoder.encode(''))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(sha256HexSync(encoder.encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256HexSync(encoder.encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches WebCrypto at every length around the block and padding edges, in any script', async () => {
    for (const length of [1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4097]) {
      for (const unit of ['x', 'é', '日', '🙂']) {
        const text = unit.repeat(length);
        expect(sha256HexSync(encoder.encode(text)), `${length} × ${unit}`).toBe(await sha256Hex(text));
      }
    }
  });
});

describe('callArgsDigest', () => {
  it('is argsDigest, for arguments hashed here and for those sent to WebCrypto', async () => {
    const small = { title: 'Fix the login', labels: ['bug', 'p1'], nested: { z: 1, a: [null, true] } };
    const large = { body: 'y'.repeat(INLINE_DIGEST_CHARS + 10) };
    for (const args of [{}, small, large, undefined]) {
      expect(await callArgsDigest(args)).toBe(await argsDigest(args));
    }
    expect(typeof callArgsDigest(small)).toBe('string');
    expect(callArgsDigest(large)).toBeInstanceOf(Promise);
  });
});
