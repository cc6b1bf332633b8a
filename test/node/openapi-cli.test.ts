/**
 * J3 end to end through the real CLI: a loopback API serving the Swagger Petstore document
 * (@readme/oas-examples) and implementing getPetById, findPetsByStatus and addPet behind its
 * `api_key` header. `hub add <document URL> --server …` reads the document, asks for the key once
 * (on standard input: no terminal here), and stores it; `hub exec` (what `execute` runs) reads
 * without asking and writes after an approval; the key reaches the API, only with its calls, and
 * never a result or anything the CLI prints.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliResult, cliEnv, hubHome, REPO } from './cli-process.ts';

const PETSTORE = readFileSync(
  join(REPO, 'node_modules', '@readme', 'oas-examples', '3.0', 'json', 'petstore.json'),
  'utf8',
);
const KEY = 'pet-key-8f3a91c2d7e4';

interface Hit {
  method: string;
  url: string;
  apiKey: string | undefined;
}

let home: string;
let remove: () => void;
let server: Server;
let base: string;
let hits: Hit[];
const pets = new Map<number, unknown>([[7, { id: 7, name: 'Rex', photoUrls: [], status: 'available' }]]);

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

beforeEach(async () => {
  ({ home, remove } = hubHome());
  hits = [];
  server = createServer(async (req, res) => {
    const apiKey = req.headers.api_key as string | undefined;
    hits.push({ method: req.method ?? '', url: req.url ?? '', apiKey });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/openapi.json') return json(200, JSON.parse(PETSTORE));
    if (apiKey !== KEY) return json(401, { message: 'missing or wrong api_key' });
    const pet = /^\/v2\/pet\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && pet) {
      const found = pets.get(Number(pet[1]));
      return found ? json(200, found) : json(404, { message: 'Pet not found' });
    }
    if (req.method === 'GET' && url.pathname === '/v2/pet/findByStatus') {
      // The API quotes the key back: the hub must not hand it to code.
      return json(200, [
        { id: 1, name: `echo ${apiKey}`, photoUrls: [], status: url.searchParams.getAll('status').join(',') },
      ]);
    }
    if (req.method === 'POST' && url.pathname === '/v2/pet') {
      const added = JSON.parse(await body(req)) as { id: number };
      pets.set(added.id, added);
      return json(200, added);
    }
    json(404, { message: 'no such operation here' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterEach(async () => {
  await new Promise((done) => server.close(done));
  remove();
});

/** The CLI as a child process (the API runs in this process, so never spawnSync), with `input` on stdin. */
function run(args: readonly string[], input = ''): Promise<CliResult> {
  const child = spawn(BIN, args, { env: cliEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

async function add(input = `${KEY}\n`): Promise<CliResult> {
  const added = await run(
    [
      '--json',
      'hub',
      'add',
      `${base}/openapi.json`,
      '--server',
      `${base}/v2`,
      '--namespace',
      'petstore',
      '--yes',
    ],
    input,
  );
  expect(added.status, added.stderr).toBe(0);
  return added;
}

describe('hub add of an OpenAPI document (J3)', () => {
  it('adds its operations as tools and asks for the api_key once, storing it as the default connection', async () => {
    const added = await add();
    const result = JSON.parse(added.stdout);
    expect(result).toMatchObject({
      added: true,
      namespace: 'petstore',
      kind: 'openapi',
      server: `${base}/v2`,
      tools: 19, // the upload (multipart) left out
      credentials: { stored: ['api_key (header api_key)'], later: [] },
    });
    expect(added.stderr).toContain(
      '"petstore_auth" is OAuth 2 with the implicit flow, which the hub does not support (only the authorization code flow can be signed in to)',
    );
    expect(added.stderr).toContain(
      'left out operation POST /pet/{petId}/uploadImage: its request body is multipart/form-data, which the hub does not send',
    );
    // The document was read (twice: the CLI's look at it, then the hub's), with no key sent.
    expect(hits.map((h) => [h.url, h.apiKey])).toEqual([
      ['/openapi.json', undefined],
      ['/openapi.json', undefined],
    ]);
    expect(added.stdout + added.stderr).not.toContain(KEY);

    const list = await run(['--json', 'hub', 'list']);
    expect(JSON.parse(list.stdout).sources).toEqual([
      expect.objectContaining({
        namespace: 'petstore',
        kind: 'openapi',
        tools: 19,
        connections: ['default*'],
      }),
    ]);
    const connections = await run(['hub', 'connections', 'petstore']);
    expect(connections.stdout).toContain('* petstore/default  header api_key');
  });

  it('reads without asking and writes after an approval; the key reaches only the API, never the result', async () => {
    await add();
    hits = [];
    const read = await run([
      '--json',
      'hub',
      'exec',
      'const pet = await petstore.getPetById({ petId: 7 }); const found = await petstore.findPetsByStatus({ status: ["available", "sold"] }); return { pet, found };',
    ]);
    expect(read.status, read.stderr).toBe(0);
    const envelope = JSON.parse(read.stdout);
    expect(envelope.status).toBe('completed');
    expect(envelope.result.pet).toEqual({ id: 7, name: 'Rex', photoUrls: [], status: 'available' });
    expect(envelope.result.found[0].status).toBe('available,sold');
    expect(read.stdout + read.stderr).not.toContain(KEY);
    expect(hits).toEqual([
      { method: 'GET', url: '/v2/pet/7', apiKey: KEY },
      { method: 'GET', url: '/v2/pet/findByStatus?status=available&status=sold', apiKey: KEY },
    ]);

    hits = [];
    const write = await run([
      '--json',
      'hub',
      'exec',
      'return await petstore.addPet({ body: { id: 8, name: "Fido", photoUrls: ["https://example.com/fido.png"] } });',
    ]);
    expect(write.status, write.stderr).toBe(0);
    const asked = JSON.parse(write.stdout);
    expect(asked.status).toBe('awaiting_approval');
    expect(hits).toEqual([]);
    const approved = await run(['--json', 'hub', 'approve', asked.runId, '--choice', 'once']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('"completed"');
    expect(approved.stdout).toContain('Fido');
    expect(hits).toEqual([{ method: 'POST', url: '/v2/pet', apiKey: KEY }]);
    expect(pets.get(8)).toEqual({ id: 8, name: 'Fido', photoUrls: ['https://example.com/fido.png'] });

    // An error status is the tool's error, with the status.
    const missing = await run([
      '--json',
      'hub',
      'exec',
      'try { await petstore.getPetById({ petId: 99 }); } catch (e) { return { name: e.name, message: e.message, status: e.status, retryable: e.retryable }; }',
    ]);
    expect(JSON.parse(missing.stdout).result).toEqual({
      name: 'ToolError',
      message: 'HTTP 404 Not Found: {"message":"Pet not found"}',
      status: 404,
      retryable: false,
    });
  });

  it('refuses a document file over the cap, or one that is not OpenAPI, adding nothing', async () => {
    const huge = join(home, 'huge.json');
    writeFileSync(
      huge,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'x', version: '1' },
        paths: {},
        pad: 'x'.repeat(5 * 1024 * 1024),
      }),
    );
    const big = await run(['hub', 'add', huge, '--server', base, '--yes']);
    expect(big.status).not.toBe(0);
    expect(big.stderr).toContain("over the hub's 4 MiB (4194304-byte) cap");
    const other = join(home, 'package.json');
    writeFileSync(other, JSON.stringify({ name: 'not-an-api' }));
    const plain = await run(['hub', 'add', other, '--yes']);
    expect(plain.status).not.toBe(0);
    expect(plain.stderr).toContain(
      `${other} is not an OpenAPI document: it has no "openapi" or "swagger" member at the top`,
    );
    const list = await run(['--json', 'hub', 'list']);
    expect(JSON.parse(list.stdout).sources).toEqual([]);
  });

  it('keeps the source when the key entered is refused, and says how to enter it again', async () => {
    const added = await add('short\n');
    expect(JSON.parse(added.stdout).credentials).toEqual({
      stored: [],
      later: ['capabilities hub auth petstore --header api_key'],
    });
    expect(added.stderr).toContain('the secret is shorter than 8 characters');
  });

  it('with nothing on standard input, says which hub auth command enters the key', async () => {
    const added = await add('');
    expect(JSON.parse(added.stdout).credentials).toEqual({
      stored: [],
      later: ['capabilities hub auth petstore --header api_key'],
    });
    expect(added.stderr).toContain(
      'Enter the credential later with `capabilities hub auth petstore --header api_key`',
    );
    const auth = await run(['hub', 'auth', 'petstore', '--header', 'api_key'], KEY);
    expect(auth.status, auth.stderr).toBe(0);
    hits = [];
    const read = await run(['--json', 'hub', 'exec', 'return await petstore.getPetById({ petId: 7 });']);
    expect(JSON.parse(read.stdout).status).toBe('completed');
    expect(hits).toEqual([{ method: 'GET', url: '/v2/pet/7', apiKey: KEY }]);
  });
});
