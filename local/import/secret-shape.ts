/**
 * Telling a secret from a setting by its name or its shape: an env entry or header named like a
 * credential (`*_TOKEN`, `*_KEY`, `*_SECRET`, `PASSWORD`, `Authorization`), a value shaped like a
 * well-known token (`ghp_…`, `sk-…`, `xoxb-…`), a URL with a password or token in it, or the
 * value of a `--token`-like argument. Pure; errs toward secret, since a setting kept out of sight
 * costs a little and a token printed costs a lot.
 */

/** Words that make a name a credential's wherever they stand (`GITHUB_PERSONAL_ACCESS_TOKEN`, `DB_PASSWORD`). */
const SECRET_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'apikey',
  'pat',
  'credential',
  'credentials',
  'cookie',
  'authorization',
  'bearer',
]);
/** Words that do only at the end (`OPENAI_API_KEY`, `X-Api-Key`, but not `KEY_FILE`). */
const SECRET_LAST = new Set(['key', 'auth', 'pass']);

const TOKEN_SHAPE =
  /^(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|sk-[A-Za-z0-9_-]{16,}|sk_(live|test)_\w{16,}|xox[abprs]-[\w-]{10,}|lin_api_\w{16,}|glpat-[\w-]{16,}|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|ntn_\w{20,}|secret_\w{20,}|eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,})$/;

const SECRET_FLAG =
  /^--?(token|api[-_]?key|key|secret|password|access[-_]?token|auth[-_]?token|pat|bearer)$/i;

const SECRET_QUERY = /^(token|access_token|api_?key|apikey|key|secret|password|auth|sig|signature|code)$/i;

export function secretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words[words.length - 1] ?? '';
  return words.some((word) => SECRET_WORDS.has(word)) || SECRET_LAST.has(last);
}

/** A value that is itself a well-known token (`Bearer ` prefix allowed). */
export function tokenShaped(value: string): boolean {
  return TOKEN_SHAPE.test(value.trim().replace(/^(Bearer|Basic|token)\s+/i, ''));
}

/** For `--token` and the like, the flag name; the argument after it is a secret. */
export function secretFlag(arg: string): boolean {
  return SECRET_FLAG.test(arg);
}

export interface UrlSecret {
  /** `userinfo` or the query parameter's name. */
  name: string;
  value: string;
}

/** The secrets inside a URL, and the URL with each replaced by `<secret>`. Not a URL: none. */
export function urlSecrets(text: string): { redacted: string; secrets: UrlSecret[] } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { redacted: text, secrets: [] };
  }
  if (!/^[a-z][a-z0-9+.-]*:$/.test(url.protocol) || url.host === '') return { redacted: text, secrets: [] };
  const secrets: UrlSecret[] = [];
  if (url.password || url.username) {
    secrets.push({
      name: 'userinfo',
      value: decodeURIComponent(url.password ? `${url.username}:${url.password}` : url.username),
    });
    url.username = '';
    url.password = '';
  }
  for (const [key, value] of [...url.searchParams]) {
    if (value !== '' && (SECRET_QUERY.test(key) || secretName(key) || tokenShaped(value))) {
      secrets.push({ name: key, value });
      url.searchParams.set(key, '<secret>');
    }
  }
  if (secrets.length === 0) return { redacted: text, secrets };
  const userinfo = secrets.some((s) => s.name === 'userinfo') ? '<secret>@' : '';
  const redacted = url.toString().replace('%3Csecret%3E', '<secret>').replaceAll('%3Csecret%3E', '<secret>');
  return { redacted: userinfo ? redacted.replace('//', `//${userinfo}`) : redacted, secrets };
}
