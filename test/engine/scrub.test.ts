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
    'URL-encoded, lower-case escapes': encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (m) =>
      m.toLowerCase(),
    ),
    hex: Buffer.from(SECRET).toString('hex'),
    HEX: Buffer.from(SECRET).toString('hex').toUpperCase(),
    'JSON \\u-escaped': [...SECRET]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join(''),
    'JSON \\u-escaped, upper-case hex': [...SECRET]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)
      .join(''),
  };
  for (const [name, form] of Object.entries(encodings)) {
    it(`replaces the ${name} form`, () => {
      expect(scrub.text(`before ${form} after`)).toBe(`before ${SCRUBBED} after`);
    });
  }

  it('replaces a secret an HTML page quotes, whichever entity it writes for a quote', () => {
    const quoted = `pw"it's<&>0123`;
    const html = createScrubber([quoted]);
    for (const [quote, apostrophe] of [
      ['&quot;', '&#x27;'],
      ['&#34;', '&#39;'],
      ['&quot;', '&apos;'],
    ]) {
      const page = `pw${quote}it${apostrophe}s&lt;&amp;&gt;0123`;
      expect(html.text(`<p>${page}</p>`)).toBe(`<p>${SCRUBBED}</p>`);
    }
  });

  it('copies a key named __proto__ as data: kept, and nothing inherited from its value', () => {
    const copy = scrub.value(JSON.parse('{"value":"x","__proto__":{"admin":true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(copy)).toEqual(['value', '__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect('admin' in copy).toBe(false);
    expect(JSON.stringify(copy)).toBe('{"value":"x","__proto__":{"admin":true}}');
  });

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

  // Found in review: whole forms, each written one way, let a secret through that was escaped only
  // in part, in mixed case or twice; the decoded view (engine/secrets/decoded-view.ts) reads it.
  it('replaces a secret partly escaped, in mixed-case escapes, escaped twice, or as entities', () => {
    const partly = {
      'one \\u escape': `\\u0067${SECRET.slice(1)}`,
      'mixed-case percent escapes': encodeURIComponent(SECRET).replace('%2F', '%2f'),
      'percent escapes escaped twice': encodeURIComponent(SECRET).replaceAll('%', '%25'),
      'a decimal entity': SECRET.replace('/', '&#47;'),
      'a hex entity, upper case': SECRET.replace('/', '&#X2F;'),
      'a letter percent-escaped': SECRET.replace('h', '%68'),
      'JSON with its slash escaped': SECRET.replace('/', '\\/'),
      'a mixed-case \\u escape of a non-ASCII letter': SECRET.replace('ü', '\\u00FC'),
    };
    for (const [name, form] of Object.entries(partly)) {
      expect(scrub.text(`before ${form} after`), name).toBe(`before ${SCRUBBED} after`);
    }
  });

  it('replaces only the escapes the secret was written in, and leaves the text around them as it was', () => {
    const text = `a%20b &amp; "q" ${encodeURIComponent(SECRET)} \\u0041 &#47;`;
    expect(scrub.text(text)).toBe(`a%20b &amp; "q" ${SCRUBBED} \\u0041 &#47;`);
  });

  it('scrubs several secrets, the longer form first', () => {
    const both = createScrubber(['token-1234', 'token-12345678']);
    expect(both.text('a token-12345678 b token-1234')).toBe(`a ${SCRUBBED} b ${SCRUBBED}`);
  });
});

describe('scrubbing inside longer encoded texts (issue: security, finding 2)', () => {
  const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
  const scrub = createScrubber([TOKEN]);
  const leaks = (text: string) =>
    text.includes(TOKEN) || Buffer.from(text, 'base64').toString('latin1').includes(TOKEN);

  for (const user of ['', 'a', 'ad', 'ada', 'x-access-token']) {
    it(`replaces HTTP Basic base64("${user}:token") at its alignment (${(user.length + 1) % 3})`, () => {
      const basic = Buffer.from(`${user}:${TOKEN}`).toString('base64');
      const header = `Authorization: Basic ${basic}`;
      const scrubbed = scrub.text(header);
      expect(scrubbed).toContain(SCRUBBED);
      expect(leaks(scrubbed.slice('Authorization: Basic '.length))).toBe(false);
      // At most two characters of mixed bytes stay on each side of the replacement.
      expect(scrubbed.replace(`Authorization: Basic `, '').replace(SCRUBBED, '').length).toBeLessThanOrEqual(
        Buffer.from(`${user}:`).toString('base64').length + 8,
      );
    });
  }

  for (const offset of [0, 1, 2]) {
    it(`replaces base64 and base64url of the token after ${offset} other bytes, with more after it`, () => {
      const text = Buffer.from(`${'p'.repeat(offset)}${TOKEN}, and more`);
      for (const encoded of [text.toString('base64'), text.toString('base64url')]) {
        const scrubbed = scrub.text(encoded);
        expect(scrubbed).toContain(SCRUBBED);
        expect(scrubbed).not.toContain(encoded.slice(8, 40));
      }
    });
  }

  it('replaces upper-case hex, and leaves unrelated base64 alone', () => {
    expect(scrub.text(Buffer.from(TOKEN).toString('hex').toUpperCase())).toBe(SCRUBBED);
    const unrelated = Buffer.from('a'.repeat(600)).toString('base64');
    expect(scrub.text(unrelated)).toBe(unrelated);
  });
});

describe('scrubbing deep values', () => {
  it('scrubs a value nested 100,000 deep without overflowing the stack, keeping its shape', () => {
    const scrub = createScrubber(['deep-secret-value']);
    let value: unknown = { leaf: 'x deep-secret-value y' };
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { next: value };
    let out = scrub.value(value);
    for (let i = 99_999; i >= 0; i--)
      out = i % 2 === 0 ? (out as unknown[])[0] : (out as { next: unknown }).next;
    expect(out).toEqual({ leaf: `x ${SCRUBBED} y` });
  });

  it('keeps array holes, order and keys as they were', () => {
    const scrub = createScrubber(['deep-secret-value']);
    expect(scrub.value({ b: [1, 'deep-secret-value', null], a: { 'deep-secret-value': true } })).toEqual({
      b: [1, SCRUBBED, null],
      a: { [SCRUBBED]: true },
    });
    expect(Object.keys(scrub.value({ z: 1, a: 2, m: 3 }))).toEqual(['z', 'a', 'm']);
  });
});

describe("a stderr tail's first line", () => {
  it('starts at a line, so it never begins in the middle of a secret the scrubber would miss', async () => {
    const { keepTail } = await import('../../engine/connectors/supervisor.ts');
    const secret = 'tail-secret-0123456789abcdef';
    const text = `${'x'.repeat(4096 - 10)} token ${secret}\nlast line\n`;
    const tail = keepTail(text);
    expect(tail).toBe('last line\n');
    expect(keepTail('short\ntext')).toBe('short\ntext');
    expect(keepTail('y'.repeat(10_000))).toBe('');
  });
});
