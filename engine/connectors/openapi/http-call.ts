/**
 * One call of an OpenAPI tool as one HTTP request, and its answer as an MCP call result. The
 * request is built from the operation as it was reviewed (method, path, where each argument
 * goes and in which style: parameter-style.ts) and the connection's credentials. The answer's
 * body is the result (JSON parsed, an object also as structured content), with its status and
 * only the allowlisted response headers (content type, `retry-after`, pagination `link`,
 * rate-limit headers: nothing that sets or names state, like `set-cookie` or `server`); a status
 * of 400 or more is an error whose text starts with the status, with a hint read from the body
 * when it says what went wrong.
 */
import type { JsonValue } from '../../contracts/names.ts';
import type { ToolOperation } from '../../contracts/sources.ts';
import { HubError } from '../../errors.ts';
import type { Credentials } from '../connector.ts';
import type { McpCallResult } from '../tool-result.ts';
import { headerText, pathText, queryPieces } from './parameter-style.ts';

/**
 * How much of an error's text, of the body's own message (the hint) and of one allowed response
 * header reaches the code. Cut after scrubbing (call-outcome.ts), never before: a secret cut in
 * two would no longer match, and its first part would get through.
 */
export const ERROR_TEXT_CHARS = 2000;
export const HINT_CHARS = 300;
export const HEADER_CHARS = 2000;

/** Response headers that reach the code, by exact (lowercase) name. */
const RESPONSE_HEADERS = new Set(['content-type', 'retry-after', 'link', 'ratelimit', 'ratelimit-policy']);
/** Response headers that reach the code, by prefix: the rate-limit families. */
const RESPONSE_HEADER_PREFIXES = ['x-ratelimit-', 'ratelimit-'];

/** The answer's headers the code may read (names lowercase), every other one left out. */
export function allowedHeaders(headers: Headers): { [name: string]: string } {
  const allowed: { [name: string]: string } = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (RESPONSE_HEADERS.has(lower) || RESPONSE_HEADER_PREFIXES.some((p) => lower.startsWith(p)))
      allowed[lower] = value;
  });
  return allowed;
}

/**
 * What an error body says went wrong, as APIs commonly put it: `message`, `error.message`,
 * `error_description`, `detail`, `error` (a string: often only a code) or `title`; undefined when
 * none is text.
 */
function bodyHint(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as { [key: string]: unknown };
  const error = body.error;
  const nested =
    typeof error === 'object' && error !== null && !Array.isArray(error)
      ? (error as { [key: string]: unknown }).message
      : undefined;
  for (const said of [body.message, nested, body.error_description, body.detail, error, body.title]) {
    if (typeof said === 'string' && said.trim() !== '') return said.trim();
  }
  return undefined;
}

function scalar(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Sets a header from an argument, refusing a value a header cannot carry (a line break). */
function setHeader(headers: Headers, name: string, value: string, property: string): void {
  try {
    headers.set(name, value);
  } catch (error) {
    throw new HubError(
      'invalid_input',
      `the argument "${property}" cannot be sent as the header ${JSON.stringify(name)}: a header value has no line breaks or control characters`,
      { detail: String(error) },
    );
  }
}

/**
 * A path argument as its style writes it (URL-encoded); an empty value, `.` and `..` are refused
 * (they would change the reviewed path: `DELETE /users/{id}` with an empty id is `DELETE /users/`).
 */
function pathSegment(property: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new HubError(
      'invalid_input',
      `the argument "${property}" is "${value}", which would change the path the tool was reviewed with; give a plain value`,
    );
  }
  return value;
}

/** The URL and init of the request that calls `operation` with `args`. */
export function buildRequest(
  baseUrl: string,
  operation: ToolOperation,
  args: { readonly [key: string]: JsonValue },
  credentials: Credentials,
): { url: URL; init: RequestInit } {
  let path = operation.path;
  const query: string[] = [];
  const headers = new Headers();
  const cookies: string[] = [];
  for (const p of operation.parameters) {
    const value = args[p.property];
    if (value === undefined || value === null) {
      if (p.in === 'path') {
        throw new HubError(
          'invalid_input',
          `the argument "${p.property}" is required: it is part of the path ${operation.path}`,
        );
      }
      continue;
    }
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(pathSegment(p.property, pathText(p, value)));
    else if (p.in === 'query') query.push(...queryPieces(p, value));
    else if (p.in === 'header') setHeader(headers, p.name, headerText(p, value), p.property);
    else if (!Object.hasOwn(credentials.cookies, p.name))
      cookies.push(`${p.name}=${encodeURIComponent(scalar(value))}`);
  }
  // A credential in the query replaces an argument of the same name.
  for (const [name, value] of Object.entries(credentials.query)) {
    const key = `${encodeURIComponent(name)}=`;
    const kept = query.filter((piece) => !piece.startsWith(key));
    query.splice(0, query.length, ...kept, `${key}${encodeURIComponent(value)}`);
  }
  for (const [name, value] of Object.entries(credentials.cookies)) cookies.push(`${name}=${value}`);
  for (const [name, value] of Object.entries(credentials.headers)) headers.set(name, value);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  headers.set('accept', 'application/json, */*;q=0.5');
  // Values that are plain one by one can still make a dot segment together (`{name}.{format}`).
  if (/(^|\/)\.\.?(\/|$)/.test(path)) {
    throw new HubError(
      'invalid_input',
      `the arguments make the path ${path}, which steps out of ${operation.path}; give path arguments that are plain values`,
    );
  }
  const url = new URL(baseUrl);
  url.hash = '';
  const basePath = url.pathname.replace(/\/+$/, '');
  url.pathname = basePath + path;
  if (!url.pathname.startsWith(`${basePath}/`) && url.pathname !== basePath) {
    throw new HubError(
      'invalid_input',
      `the arguments make the path ${url.pathname}, outside the API's ${basePath || '/'}; give path arguments that are plain values`,
    );
  }
  const search = query.join('&');
  if (search) url.search = url.search ? `${url.search}&${search}` : search;
  const init: RequestInit = { method: operation.method.toUpperCase(), headers };
  const body = operation.body ? args[operation.body.property] : undefined;
  if (operation.body && body !== undefined) {
    const type = operation.body.mediaType;
    headers.set('content-type', type);
    if (
      /x-www-form-urlencoded/i.test(type) &&
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body)
    ) {
      const fields = Object.entries(body).map(([k, v]): [string, string] => [k, scalar(v ?? null)]);
      init.body = new URLSearchParams(fields).toString();
    } else init.body = /json/i.test(type) ? JSON.stringify(body) : scalar(body);
  }
  return { url, init };
}

/** An HTTP answer as an MCP call result. */
export async function callResult(response: Response): Promise<McpCallResult> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let value: unknown;
  if (/json/i.test(type) || /^\s*[[{]/.test(text)) {
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      value = undefined;
    }
  }
  const httpHeaders = allowedHeaders(response.headers);
  if (response.status >= 400) {
    const said = text.trim();
    const retry =
      response.status === 429 || response.status >= 500 ? ' (it may succeed if retried later)' : '';
    const httpHint = bodyHint(value);
    return {
      isError: true,
      httpStatus: response.status,
      httpHeaders,
      ...(httpHint === undefined ? {} : { httpHint }),
      content: [
        {
          type: 'text',
          text: `HTTP ${response.status} ${response.statusText}${retry}${said ? `: ${said}` : ''}`,
        },
      ],
    };
  }
  const result: McpCallResult = {
    content: [{ type: 'text', text }],
    httpStatus: response.status,
    httpHeaders,
  };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    result.structuredContent = value as { [key: string]: unknown };
  }
  return result;
}
