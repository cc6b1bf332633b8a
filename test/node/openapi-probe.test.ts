/**
 * How `hub add <URL>` tells an OpenAPI document from an MCP server (local/cli/openapi-add.ts):
 * it GETs the URL, following a redirect only within the URL's own origin, so the probe never
 * reaches a host the person did not name; an MCP endpoint's answer to a GET is "not a document".
 */
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../local/cli/openapi-add.ts';
import { hubHome, runCli } from './cli-process.ts';

const DOCUMENT = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Probe', version: '1' },
  paths: { '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok' } } } } },
});

let named: Server;
let other: Server;
let namedBase: string;
let otherBase: string;
/** Every request the host the person did not name received. */
let otherHits: string[];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeEach(async () => {
  otherHits = [];
  other = createServer((req, res) => {
    otherHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT);
  });
  otherBase = await listen(other);
  named = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/openapi.json') res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT);
    else if (path === '/moved') res.writeHead(302, { location: '/openapi.json' }).end();
    else if (path === '/away') res.writeHead(302, { location: `${otherBase}/openapi.json` }).end();
    else if (path === '/mcp') {
      // What an MCP server answers a GET that does not accept an event stream.
      res.writeHead(405, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed.' },
          id: null,
        }),
      );
    } else res.writeHead(404).end();
  });
  namedBase = await listen(named);
});

afterEach(async () => {
  await new Promise((done) => named.close(done));
  await new Promise((done) => other.close(done));
});

describe('the probe of a URL given to hub add', () => {
  it('recognises a document, also behind a redirect within its origin', async () => {
    expect(await openApiDocument(`${namedBase}/openapi.json`)).toBe(`${namedBase}/openapi.json`);
    expect(await openApiDocument(`${namedBase}/moved`)).toBe(`${namedBase}/moved`);
    expect(otherHits).toEqual([]);
  });

  it('takes an MCP endpoint for no document', async () => {
    expect(await openApiDocument(`${namedBase}/mcp`)).toBeUndefined();
  });

  it('never follows a redirect to another origin', async () => {
    expect(await openApiDocument(`${namedBase}/away`)).toBeUndefined();
    expect(otherHits).toEqual([]);
  });

  it('hub add of a URL that redirects to another origin reaches only the named host', async () => {
    const { home, remove } = hubHome();
    try {
      const added = await runCli(home, ['hub', 'add', `${namedBase}/away`, '--yes', '--no-input']);
      expect(added.status).not.toBe(0);
      expect(otherHits).toEqual([]);
    } finally {
      remove();
    }
  });
});
