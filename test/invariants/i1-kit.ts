/**
 * I1's kit: the credential the attacks use and every encoding of it an upstream might echo
 * (test/fixtures/servers/encoding-secret-server.ts answers in each; test/invariants/i1-secrets.test.ts
 * looks for each in every channel). Written here independently of engine/secrets/scrub.ts, so the
 * suite does not take the scrubber's word for which forms exist. Pure: no I/O, no test runner.
 */

/**
 * The credential: a quote, a slash, a plus and a space make its URL, JSON-escaped and base64
 * forms differ from the raw one.
 */
export const SECRET = 'sk_i1/"quoted"+key 0123456789abcdef~';

export interface Encoding {
  name: string;
  value: string;
}

/** Every encoding of `token` the matrix tries, by name. */
export function encodings(token: string): Encoding[] {
  const bytes = Buffer.from(token);
  const json = JSON.stringify(token).slice(1, -1);
  return [
    { name: 'raw', value: token },
    { name: 'base64', value: bytes.toString('base64') },
    { name: 'base64url', value: bytes.toString('base64url') },
    { name: 'url', value: encodeURIComponent(token) },
    { name: 'form', value: encodeURIComponent(token).replaceAll('%20', '+') },
    // Percent-encoding's hex digits are case-insensitive (RFC 3986, 2.1); some encoders write lower case.
    { name: 'url-lower', value: encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) },
    // As an HTML error page quotes it.
    {
      name: 'html-escaped',
      value: token.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;'),
    },
    { name: 'hex', value: bytes.toString('hex') },
    { name: 'HEX', value: bytes.toString('hex').toUpperCase() },
    { name: 'json-escaped', value: json },
    { name: 'json-escaped-slash', value: json.replaceAll('/', '\\/') },
    { name: 'basic', value: Buffer.from(`user:${token}`).toString('base64') },
  ];
}

/** The forms a channel's text must never hold: every encoding, and its middle (a form cut short). */
export function forbidden(token: string): Encoding[] {
  return encodings(token).map(({ name, value }) => ({
    name,
    value: name === 'basic' ? value.slice(8, -4) : value,
  }));
}
