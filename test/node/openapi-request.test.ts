/**
 * How an OpenAPI tool call becomes a request (http-call.ts): path parameters URL-encoded,
 * query arrays repeated, headers and cookies, a JSON or form body, and the connection's
 * credentials in the header, query parameter or cookie the document named; an answer's status
 * and body as the call's result. And which OpenAPI sources the hosted hub cannot run.
 */
import { describe, expect, it } from 'vitest';
import { hostedCannotRun } from '../../durable-objects/hosted-configuration.ts';
import { deliver, NO_CREDENTIALS } from '../../engine/connectors/connector.ts';
import { readDocument } from '../../engine/connectors/openapi/document.ts';
import { allowedHeaders, buildRequest, callResult } from '../../engine/connectors/openapi/http-call.ts';
import { operationTools } from '../../engine/connectors/openapi/operations.ts';
import { queryPieces } from '../../engine/connectors/openapi/parameter-style.ts';
import { basicCredential } from '../../engine/connectors/openapi/security.ts';
import type { ManifestTool, ToolOperation } from '../../engine/contracts/sources.ts';
import { createScrubber } from '../../engine/secrets/scrub.ts';
import { answeredCall } from '../../engine/sources/call-outcome.ts';

const operation: ToolOperation = {
  method: 'post',
  path: '/users/{id}/notes',
  parameters: [
    { name: 'id', in: 'path', property: 'id' },
    { name: 'tag', in: 'query', property: 'tag' },
    { name: 'X-Trace', in: 'header', property: 'trace' },
    { name: 'session', in: 'cookie', property: 'session' },
  ],
  body: { property: 'body', mediaType: 'application/json' },
};

describe('buildRequest', () => {
  it('fills the path, query, headers, cookies and body from the arguments and the credentials', async () => {
    const credentials = deliver('default', [
      { delivery: { kind: 'query', name: 'api_key' }, value: 'query-secret-1' },
      { delivery: { kind: 'cookie', name: 'auth' }, value: 'cookie-secret-1' },
      {
        delivery: { kind: 'header', name: 'Authorization', scheme: 'Basic' },
        value: basicCredential('ann', 'pässword'),
      },
    ]);
    const { url, init } = buildRequest(
      'https://api.example/v1/',
      operation,
      { id: 'a b/c', tag: ['x', 'y'], trace: 't-1', session: 's 1', body: { text: 'hi' } },
      credentials,
    );
    expect(url.href).toBe('https://api.example/v1/users/a%20b%2Fc/notes?tag=x&tag=y&api_key=query-secret-1');
    expect(init.method).toBe('POST');
    const headers = new Headers(init.headers);
    expect(headers.get('x-trace')).toBe('t-1');
    expect(headers.get('cookie')).toBe('session=s%201; auth=cookie-secret-1');
    expect(headers.get('authorization')).toBe(`Basic ${btoa('ann:p\u00c3\u00a4ssword')}`);
    expect(headers.get('content-type')).toBe('application/json');
    expect(init.body).toBe('{"text":"hi"}');
  });

  it('says which path argument is missing', () => {
    expect(() => buildRequest('https://api.example', operation, {}, NO_CREDENTIALS)).toThrow(
      'the argument "id" is required: it is part of the path /users/{id}/notes',
    );
  });

  it('puts the path under the path of the server URL, keeping a query the server URL has', () => {
    const { url } = buildRequest(
      'https://api.example/v1?version=2',
      operation,
      { id: '1', tag: 'x' },
      NO_CREDENTIALS,
    );
    expect(url.href).toBe('https://api.example/v1/users/1/notes?version=2&tag=x');
  });

  it('refuses a path argument . or .., which would leave the reviewed path', () => {
    for (const id of ['.', '..']) {
      expect(() => buildRequest('https://api.example/v1', operation, { id }, NO_CREDENTIALS)).toThrow(
        `the argument "id" is "${id}", which would change the path the tool was reviewed with; give a plain value`,
      );
    }
    const up: ToolOperation = {
      method: 'get',
      path: '/{a}/{b}',
      parameters: [
        { name: 'a', in: 'path', property: 'a' },
        { name: 'b', in: 'path', property: 'b' },
      ],
    };
    expect(
      buildRequest('https://api.example/v1', up, { a: '.a', b: '..b' }, NO_CREDENTIALS).url.pathname,
    ).toBe('/v1/.a/..b');
    // Empty, and plain values that make a dot segment together, on a server with no path of its own.
    expect(() => buildRequest('https://api.example', operation, { id: '' }, NO_CREDENTIALS)).toThrow(
      'the argument "id" is "", which would change the path the tool was reviewed with',
    );
    // A path that is a dot segment however plain its values (a template such as `/files/{id}/..`).
    const dotted: ToolOperation = {
      method: 'get',
      path: '/files/{id}/..',
      parameters: [{ name: 'id', in: 'path', property: 'id' }],
    };
    expect(() => buildRequest('https://api.example', dotted, { id: 'a' }, NO_CREDENTIALS)).toThrow(
      'the arguments make the path /files/a/.., which steps out of /files/{id}/..',
    );
  });

  it('refuses a header argument with a line break, and lets a key win over a cookie argument of its name', () => {
    expect(() =>
      buildRequest('https://api.example', operation, { id: '1', trace: 'a\r\nX-Evil: 1' }, NO_CREDENTIALS),
    ).toThrow('the argument "trace" cannot be sent as the header "X-Trace"');
    const credentials = deliver('default', [
      { delivery: { kind: 'cookie', name: 'session' }, value: 'key-1' },
    ]);
    const { init } = buildRequest(
      'https://api.example',
      operation,
      { id: '1', session: 'mine' },
      credentials,
    );
    expect(new Headers(init.headers).get('cookie')).toBe('session=key-1');
  });

  it('sends a form body as form fields', () => {
    const form: ToolOperation = {
      method: 'post',
      path: '/f',
      parameters: [],
      body: { property: 'body', mediaType: 'application/x-www-form-urlencoded' },
    };
    const { init } = buildRequest(
      'https://api.example',
      form,
      { body: { name: 'Rex', age: 3 } },
      NO_CREDENTIALS,
    );
    expect(init.body).toBe('name=Rex&age=3');
  });
});

describe('callResult', () => {
  it('gives a JSON object as structured content, and an error status as an error with the status', async () => {
    const ok = await callResult(
      new Response('{"id":1}', { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    expect(ok).toEqual({
      content: [{ type: 'text', text: '{"id":1}' }],
      structuredContent: { id: 1 },
      httpStatus: 200,
      httpHeaders: { 'content-type': 'application/json' },
    });
    const limited = await callResult(
      new Response('slow down', { status: 429, statusText: 'Too Many Requests' }),
    );
    expect(limited).toEqual({
      isError: true,
      httpStatus: 429,
      httpHeaders: { 'content-type': 'text/plain;charset=UTF-8' },
      content: [
        { type: 'text', text: 'HTTP 429 Too Many Requests (it may succeed if retried later): slow down' },
      ],
    });
  });

  it('passes only the allowlisted response headers: content type, retry-after, link and rate limits', async () => {
    const headers = new Headers([
      ['Content-Type', 'application/json'],
      ['Retry-After', '30'],
      ['Link', '<https://api.example/v1/pets?page=2>; rel="next"'],
      ['X-RateLimit-Remaining', '0'],
      ['X-RateLimit-Reset', '1700000000'],
      ['RateLimit', 'limit=100, remaining=0, reset=30'],
      ['RateLimit-Policy', '100;w=60'],
      ['RateLimit-Limit', '100'],
      ['Set-Cookie', 'session=abc'],
      ['Server', 'nginx/1.2'],
      ['X-Request-Id', 'req-1'],
      ['WWW-Authenticate', 'Bearer realm="api"'],
      ['Location', 'https://elsewhere.example/'],
      ['X-Rate-Limited-By', 'not a rate-limit family'],
    ]);
    expect(allowedHeaders(headers)).toEqual({
      'content-type': 'application/json',
      'retry-after': '30',
      link: '<https://api.example/v1/pets?page=2>; rel="next"',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1700000000',
      ratelimit: 'limit=100, remaining=0, reset=30',
      'ratelimit-policy': '100;w=60',
      'ratelimit-limit': '100',
    });
    const ok = await callResult(new Response('[1]', { status: 200, headers }));
    expect(ok.httpHeaders).toEqual(allowedHeaders(headers));
  });

  it("reads an error body's own message as a hint", async () => {
    const bodies: [unknown, string | undefined][] = [
      [{ message: 'Pet not found' }, 'Pet not found'],
      [{ error: { code: 7, message: 'quota exceeded' } }, 'quota exceeded'],
      [{ error: 'invalid_grant', error_description: 'expired' }, 'expired'],
      [{ error: 'invalid_grant' }, 'invalid_grant'],
      [{ detail: 'id must be a number', title: 'Bad Request' }, 'id must be a number'],
      [{ title: 'Bad Request' }, 'Bad Request'],
      [{ code: 12 }, undefined],
      [['not', 'an', 'object'], undefined],
    ];
    for (const [body, hint] of bodies) {
      const answer = await callResult(
        new Response(JSON.stringify(body), { status: 400, headers: { 'content-type': 'application/json' } }),
      );
      expect(answer.httpHint).toBe(hint);
    }
    const text = await callResult(new Response('{"message": "not json after all', { status: 500 }));
    expect(text.httpHint).toBeUndefined();
  });
});

describe('the hosted hub', () => {
  const source = (document: string) => ({
    kind: 'openapi' as const,
    namespace: 'api',
    document,
    url: 'https://api.example/',
    allowedHosts: ['api.example'],
    addedAt: 0,
    updatedAt: 0,
  });

  it('skips an OpenAPI source read from a file, saying why, and runs one read from a URL', () => {
    expect(hostedCannotRun(false)(source('/home/ann/openapi.json'))).toContain(
      'its OpenAPI document is a file on your computer (/home/ann/openapi.json), which the hosted hub cannot read',
    );
    expect(hostedCannotRun(false)(source('https://api.example/openapi.json'))).toBeUndefined();
  });
});

describe('parameter styles (OpenAPI style and explode)', () => {
  const param = (name: string, where: string, extra: object = {}) => ({
    name,
    in: where,
    schema: { type: 'array', items: { type: 'string' } },
    ...extra,
  });
  const object = { type: 'object', additionalProperties: { type: 'string' } };
  const text = JSON.stringify({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/items/{ids}/{label}/{matrix}/{point}': {
        get: {
          operationId: 'styles',
          parameters: [
            param('ids', 'path'),
            param('label', 'path', { style: 'label' }),
            param('matrix', 'path', { style: 'matrix', explode: true }),
            param('point', 'path', { schema: object, explode: true }),
            param('tags', 'query'),
            param('csv', 'query', { style: 'form', explode: false }),
            param('spaced', 'query', { style: 'spaceDelimited' }),
            param('piped', 'query', { style: 'pipeDelimited', explode: false }),
            param('filter', 'query', { style: 'deepObject', explode: true, schema: object }),
            param('color', 'query', { schema: object }),
            param('X-Ids', 'header'),
            {
              name: 'where',
              in: 'query',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          ],
          responses: {},
        },
      },
      '/plain': {
        get: {
          operationId: 'plain',
          parameters: [
            param('tags', 'query', { style: 'form', explode: true }),
            param('id', 'header', { style: 'simple', explode: false }),
          ],
          responses: {},
        },
      },
    },
  });
  const tools = operationTools(readDocument(text, '/home/me/styles.json')).tools;
  const styles = tools.find((tool) => tool.name === 'styles')?.operation;
  const plain = tools.find((tool) => tool.name === 'plain')?.operation;

  it('keeps style and explode in the binding only where they are not the defaults', () => {
    expect(styles?.parameters).toEqual([
      { name: 'ids', in: 'path', property: 'ids' },
      { name: 'label', in: 'path', property: 'label', style: 'label' },
      { name: 'matrix', in: 'path', property: 'matrix', style: 'matrix', explode: true },
      { name: 'point', in: 'path', property: 'point', explode: true },
      { name: 'tags', in: 'query', property: 'tags' },
      { name: 'csv', in: 'query', property: 'csv', explode: false },
      { name: 'spaced', in: 'query', property: 'spaced', style: 'spaceDelimited', explode: false },
      { name: 'piped', in: 'query', property: 'piped', style: 'pipeDelimited', explode: false },
      { name: 'filter', in: 'query', property: 'filter', style: 'deepObject' },
      { name: 'color', in: 'query', property: 'color' },
      { name: 'X-Ids', in: 'header', property: 'X-Ids' },
      { name: 'where', in: 'query', property: 'where', mediaType: 'application/json' },
    ]);
    // Defaults said out loud bind (and so digest) as defaults left unsaid.
    expect(plain?.parameters).toEqual([
      { name: 'tags', in: 'query', property: 'tags' },
      { name: 'id', in: 'header', property: 'id' },
    ]);
  });

  it('writes each style as OpenAPI says', () => {
    if (!styles) throw new Error('no binding');
    const { url, init } = buildRequest(
      'https://api.example/v1',
      styles,
      {
        ids: ['a', 'b c'],
        label: ['x', 'y'],
        matrix: ['m', 'n'],
        point: { x: '1', y: '2' },
        tags: ['red', 'blue'],
        csv: ['1', '2'],
        spaced: ['a', 'b'],
        piped: ['a', 'b'],
        filter: { role: 'admin', 'first name': 'Ann' },
        color: { R: '100', G: '200' },
        'X-Ids': ['1', '2'],
        where: { age: 3 },
      },
      NO_CREDENTIALS,
    );
    expect(url.pathname).toBe('/v1/items/a,b%20c/.x,y/;matrix=m;matrix=n/x=1,y=2');
    expect(url.search.slice(1).split('&')).toEqual([
      'tags=red',
      'tags=blue',
      'csv=1,2',
      'spaced=a%20b',
      'piped=a|b',
      'filter[role]=admin',
      'filter[first%20name]=Ann',
      'R=100',
      'G=200',
      'where=%7B%22age%22%3A3%7D',
    ]);
    expect(new Headers(init.headers).get('x-ids')).toBe('1,2');
  });

  it('encodes a delimiter inside a value, and still refuses a dot segment', () => {
    if (!styles) throw new Error('no binding');
    const args = { label: ['x'], matrix: ['m'], point: { x: '1' } };
    const { url } = buildRequest(
      'https://api.example',
      styles,
      { ...args, ids: ['a,b', 'c'], csv: ['1,2', '3'] },
      NO_CREDENTIALS,
    );
    expect(url.pathname).toBe('/items/a%2Cb,c/.x/;matrix=m/x=1');
    expect(url.search).toBe('?csv=1%2C2,3');
    expect(() =>
      buildRequest('https://api.example', styles, { ...args, ids: ['..'] }, NO_CREDENTIALS),
    ).toThrow('which would change the path the tool was reviewed with');
  });

  it('lets a query credential replace an argument of the same name', () => {
    const keyed: ToolOperation = {
      method: 'get',
      path: '/a',
      parameters: [
        { name: 'key', in: 'query', property: 'key' },
        { name: 'q', in: 'query', property: 'q' },
      ],
    };
    const credentials = deliver('default', [
      { delivery: { kind: 'query', name: 'key' }, value: 's3cret key' },
    ]);
    const { url } = buildRequest('https://api.example', keyed, { key: 'mine', q: 'a b' }, credentials);
    expect(url.search).toBe('?q=a%20b&key=s3cret%20key');
  });
});

describe('an error answer cut to size after scrubbing', () => {
  it('never lets the first part of a secret through where the cut falls inside it', async () => {
    const secret = 'sk-live-0123456789abcdef0123456789abcdef';
    const scrub = createScrubber([secret]);
    const tool = {
      address: 'api.get_thing',
      name: 'get_thing',
      inputSchema: { type: 'object' },
      contract: `sha256:${'0'.repeat(64)}`,
    } as ManifestTool;
    // The secret straddles each cut: the hint's 300th character, the header's and the text's 2000th.
    const message = `${'m'.repeat(290)}${secret}`;
    const link = `<https://api.example/next?key=${secret}>`.padStart(2010, ' ');
    const body = JSON.stringify({ message, pad: 'p'.repeat(1960 - message.length), again: secret });
    const result = await callResult(
      new Response(body, { status: 400, headers: { 'content-type': 'application/json', link } }),
    );
    const outcome = answeredCall(result, tool, 1, scrub);
    expect(outcome.ok).toBe(false);
    const text = JSON.stringify(outcome);
    for (let length = 8; length < secret.length; length++)
      expect(text).not.toContain(secret.slice(0, length));
    expect(text).toContain('[secret]');
  });
});

describe('delimited styles, exploded', () => {
  it('repeat the name for each item, as form does', () => {
    const spaced = { name: 'a', in: 'query', property: 'a', style: 'spaceDelimited', explode: true } as const;
    const piped = { name: 'a', in: 'query', property: 'a', style: 'pipeDelimited', explode: true } as const;
    expect(queryPieces(spaced, [1, 2])).toEqual(['a=1', 'a=2']);
    expect(queryPieces(piped, ['x', 'y'])).toEqual(['a=x', 'a=y']);
    expect(queryPieces({ ...piped, explode: false }, ['x', 'y'])).toEqual(['a=x|y']);
  });
});
