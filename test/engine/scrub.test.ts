/** Scrubbing: an API that echoes a token in any encoding never gets it past the hub. */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createScrubber, SCRUBBED, secretForms } from '../../engine/secrets/scrub.ts';

const SECRET = 'ghp_T0k3n/with+odd=chars ü';

describe('scrubbing', () => {
  const scrub = createScrubber([SECRET]);
  const encodings: Record<string, string> = {
    raw: SECRET,
    base64: Buffer.from(SECRET).toString('base64'),
    base64url: Buffer.from(SECRET).toString('base64url'),
    'URL-encoded': encodeURIComponent(SECRET),
    'form-encoded': encodeURIComponent(SECRET).replaceAll('%20', '+'),
    hex: Buffer.from(SECRET).toString('hex'),
    HEX: Buffer.from(SECRET).toString('hex').toUpperCase(),
  };
  for (const [name, form] of Object.entries(encodings)) {
    it(`replaces the ${name} form`, () => {
      expect(scrub.text(`before ${form} after`)).toBe(`before ${SCRUBBED} after`);
    });
  }

  it('scrubs every string of a value, keys included, and keeps other values', () => {
    const echoed = {
      headers: { authorization: `Bearer ${SECRET}` },
      [SECRET]: [1, true, null, encodings.base64],
      nested: [{ url: `https://x.example/?t=${encodings['URL-encoded']}` }],
    };
    expect(scrub.value(echoed)).toEqual({
      headers: { authorization: `Bearer ${SCRUBBED}` },
      [SCRUBBED]: [1, true, null, SCRUBBED],
      nested: [{ url: `https://x.example/?t=${SCRUBBED}` }],
    });
  });

  it('leaves text without the secret alone, and scrubs nothing without secrets', () => {
    expect(scrub.text('nothing to see')).toBe('nothing to see');
    expect(createScrubber([]).text(SECRET)).toBe(SECRET);
  });

  it('scrubs a secret as it appears escaped inside JSON text', () => {
    const quoted = createScrubber(['pa"ss/wo\\rd']);
    expect(quoted.text(JSON.stringify({ token: 'pa"ss/wo\\rd' }))).toBe('{"token":"[secret]"}');
    expect(quoted.text('{"token":"pa\\"ss\\/wo\\\\rd"}')).toBe('{"token":"[secret]"}');
  });

  it('ignores secrets too short to scrub safely', () => {
    expect(secretForms('abc')).toEqual([]);
    expect(createScrubber(['abc']).text('abcabc')).toBe('abcabc');
  });

  it('scrubs several secrets, the longer form first', () => {
    const both = createScrubber(['token-1234', 'token-12345678']);
    expect(both.text('a token-12345678 b token-1234')).toBe(`a ${SCRUBBED} b ${SCRUBBED}`);
  });
});
