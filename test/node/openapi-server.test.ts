/**
 * Where an OpenAPI source's API is: the server the hub picks from a document (an https one first;
 * Swagger 2.0 without `schemes` takes the document's own scheme) and the server URLs it refuses
 * (credentials in the URL, a query or fragment, an http server named by a document read over https).
 */
import { describe, expect, it } from 'vitest';
import { firstServer, readDocument } from '../../engine/connectors/openapi/document.ts';
import { sourceFromDraft } from '../../engine/sources/draft-source.ts';
import { localWording } from '../../local/wording.ts';
import { hubErrorOf } from '../hub-error.ts';

const swagger = (extra: object) =>
  JSON.stringify({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {}, ...extra });

describe('the server the hub picks from a document', () => {
  it('Swagger 2.0 without schemes takes the scheme the document was read with', () => {
    const text = swagger({ host: 'api.x.com', basePath: '/v2' });
    expect(firstServer(readDocument(text, 'https://docs.x.com/swagger.json'))).toBe('https://api.x.com/v2');
    expect(firstServer(readDocument(text, 'http://docs.x.com/swagger.json'))).toBe('http://api.x.com/v2');
    expect(firstServer(readDocument(text, '/home/me/swagger.json'))).toBe('https://api.x.com/v2');
  });

  it('prefers an https server to an http one listed first', () => {
    const text = swagger({ host: 'api.x.com', schemes: ['http', 'https'] });
    expect(firstServer(readDocument(text, 'https://docs.x.com/swagger.json'))).toBe('https://api.x.com/');
    const three = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      servers: [{ url: 'http://api.x.com' }, { url: 'https://api.x.com/v1' }],
    });
    expect(firstServer(readDocument(three, '/home/me/o.json'))).toBe('https://api.x.com/v1');
  });
});

describe('server URLs the hub refuses', () => {
  const make = (
    server: string | undefined,
    serverUrl: string | undefined,
    document = 'https://docs.x.com/o.json',
  ) =>
    hubErrorOf(async () =>
      sourceFromDraft(
        { kind: 'openapi', document, ...(server ? { server } : {}) },
        'things',
        0,
        undefined,
        localWording.apiServer,
        serverUrl,
      ),
    );

  it('an http server named by a document read over https, unless --server names it', async () => {
    const error = await make(undefined, 'http://api.x.com/');
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('Give the URL to use with `capabilities hub add --server <url>`');
    expect(
      sourceFromDraft(
        { kind: 'openapi', document: 'https://docs.x.com/o.json', server: 'http://api.x.com/' },
        'things',
        0,
        undefined,
        localWording.apiServer,
      ),
    ).toMatchObject({ url: 'http://api.x.com/' });
    expect(
      sourceFromDraft(
        { kind: 'openapi', document: 'http://docs.x.com/o.json' },
        'things',
        0,
        undefined,
        localWording.apiServer,
        'http://api.x.com/',
      ),
    ).toMatchObject({ url: 'http://api.x.com/' });
  });

  it('a server with a user name and password, or with a query or a fragment', async () => {
    expect((await make('https://me:secret@api.x.com/', undefined)).message).toContain(
      'user name or password',
    );
    expect((await make(undefined, 'https://me:secret@api.x.com/')).message).toContain(
      'user name or password',
    );
    expect((await make(undefined, 'https://api.x.com/v1?key=1')).message).toContain(
      'query or a fragment (?key=1)',
    );
    expect((await make('https://api.x.com/v1#top', undefined)).message).toContain(
      'query or a fragment (#top)',
    );
  });
});
