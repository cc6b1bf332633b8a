/**
 * OpenAPI documents as tools, over every JSON document of @readme/oas-examples (Swagger 2.0,
 * OpenAPI 3.0 and 3.1, real documents): each converts, or fails with the message listed here.
 * The Swagger Petstore is checked closely (names, annotations, schemas, call bindings, what it
 * asks for), and the TypeScript `describe` gives for it compiles under `tsc --strict`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolAddress, toolIdentifiers } from '../../engine/address.ts';
import { readDocument } from '../../engine/connectors/openapi/document.ts';
import { operationTools, someTools, toolName } from '../../engine/connectors/openapi/operations.ts';
import { credentialAsks } from '../../engine/connectors/openapi/security.ts';
import type { Manifest } from '../../engine/contracts/sources.ts';
import { contractDigest } from '../../engine/digest.ts';
import { describeTargets } from '../../engine/typegen/index.ts';
import { compile, formatDiagnostic } from '../engine/typegen-compile.ts';
import { REPO } from './cli-process.ts';

const EXAMPLES = join(REPO, 'node_modules', '@readme', 'oas-examples');

/** The documents that yield no tool, deliberately, and why. */
const NO_TOOLS: Record<string, string> = {
  // Webhooks only: nothing the hub can call.
  '3.1/webhooks.json': 'has no operations the hub can call',
  // Uploads only (multipart, binary): bodies the hub does not send.
  '3.0/file-uploads.json':
    'left out operation POST /anything/image-png: its request body is image/png, which the hub does not send',
  '3.0/schema-encoding-style.json':
    'left out operation PUT /form/primitive: its request body is multipart/form-data, which the hub does not send',
  '3.1/schema-encoding-style.json':
    'left out operation PUT /form/primitive: its request body is multipart/form-data, which the hub does not send',
};

function documents(): string[] {
  return ['2.0', '3.0', '3.1'].flatMap((version) =>
    readdirSync(join(EXAMPLES, version, 'json'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${version}/${file}`),
  );
}

function read(relative: string) {
  const path = join(EXAMPLES, relative.split('/')[0] ?? '', 'json', relative.split('/')[1] ?? '');
  return readDocument(readFileSync(path, 'utf8'), path);
}

describe('every document of @readme/oas-examples', () => {
  it('has examples to read (2.0, 3.0 and 3.1)', () => {
    expect(documents().length).toBeGreaterThan(50);
  });

  for (const relative of documents()) {
    it(`converts ${relative}, or says why not`, () => {
      const document = read(relative);
      const expected = NO_TOOLS[relative];
      if (expected) {
        expect(() => someTools(operationTools(document), relative)).toThrow(expected);
        return;
      }
      const { tools } = operationTools(document);
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
        expect(tool.inputSchema.type).toBe('object');
        if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
        expect(tool.operation?.path.startsWith('/')).toBe(true);
        // Every `$defs` reference names a definition the schema carries (recursive ones stay finite).
        for (const schema of [tool.inputSchema, tool.outputSchema ?? {}]) {
          const text = JSON.stringify(schema);
          const defs = Object.keys((schema.$defs as object | undefined) ?? {});
          for (const [, name] of text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) expect(defs).toContain(name);
          expect(text).not.toContain('#/components/');
        }
      }
    });
  }
});

describe('the Swagger Petstore (3.0)', () => {
  const document = read('3.0/petstore.json');
  const { tools, notices } = operationTools(document);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  it('is 19 tools named by operationId, the upload (multipart) left out, saying why', () => {
    expect(notices).toEqual([
      'left out operation POST /pet/{petId}/uploadImage: its request body is multipart/form-data, which the hub does not send (it sends JSON, form fields (application/x-www-form-urlencoded) and text)',
    ]);
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'addPet',
        'updatePet',
        'findPetsByStatus',
        'findPetsByTags',
        'getPetById',
        'updatePetWithForm',
        'deletePet',
        'getInventory',
        'placeOrder',
        'getOrderById',
        'deleteOrder',
        'createUser',
        'createUsersWithArrayInput',
        'createUsersWithListInput',
        'loginUser',
        'logoutUser',
        'getUserByName',
        'updateUser',
        'deleteUser',
      ].sort(),
    );
  });

  it('marks reads read-only, writes not, and deletes destructive', () => {
    expect(byName.get('getPetById')?.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get('addPet')?.annotations).toEqual({ readOnlyHint: false });
    expect(byName.get('deletePet')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  it('takes parameters and the body as input, with component schemas as $defs', () => {
    const get = byName.get('getPetById');
    expect(get?.title).toBe('Find pet by ID');
    expect(get?.description).toBe('Find pet by ID\n\nReturns a single pet');
    expect(get?.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { type: 'integer', format: 'int64', description: 'ID of pet to return' } },
      required: ['petId'],
    });
    expect(get?.outputSchema).toMatchObject({
      type: 'object',
      required: ['name', 'photoUrls'],
      properties: {
        category: { $ref: '#/$defs/Category' },
        tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
      },
    });
    expect(Object.keys(get?.outputSchema?.$defs ?? {})).toEqual(['Category', 'Tag']);
    expect(get?.operation).toEqual({
      method: 'get',
      path: '/pet/{petId}',
      parameters: [{ name: 'petId', in: 'path', property: 'petId' }],
    });
    const add = byName.get('addPet');
    expect(add?.inputSchema).toMatchObject({
      properties: {
        body: { $ref: '#/$defs/Pet', description: 'Pet object that needs to be added to the store' },
      },
      required: ['body'],
    });
    expect(add?.operation).toEqual({
      method: 'post',
      path: '/pet',
      parameters: [],
      body: { property: 'body', mediaType: 'application/json' },
    });
    expect(byName.get('findPetsByStatus')?.operation?.parameters).toEqual([
      { name: 'status', in: 'query', property: 'status' },
    ]);
  });

  it('asks for the api_key header and says the OAuth 2 implicit flow is not supported', () => {
    expect(credentialAsks(document)).toEqual([
      {
        scheme: 'petstore_auth',
        label:
          'OAuth 2 with the implicit flow, which the hub does not support (only the authorization code flow can be signed in to)',
      },
      {
        scheme: 'api_key',
        delivery: { kind: 'header', name: 'api_key', scheme: '' },
        label: 'API key in header api_key',
      },
    ]);
  });

  it('gives a describe whose TypeScript compiles under --strict', async () => {
    const ids = toolIdentifiers(tools.map((t) => t.name));
    const manifest: Manifest = {
      namespace: 'petstore',
      fetchedAt: 0,
      tools: await Promise.all(
        tools.map(async (tool) => ({
          ...tool,
          address: toolAddress('petstore', ids.get(tool.name) ?? tool.name),
          contract: await contractDigest(tool),
        })),
      ),
    };
    const answer = describeTargets([manifest], ['petstore'], { budgetTokens: 20_000 });
    expect(answer.omitted).toEqual([]);
    expect(answer.text).toContain('getPetById');
    const compiled = compile([{ name: 'petstore.ts', text: answer.text }]);
    try {
      expect(compiled.diagnostics.map(formatDiagnostic)).toEqual([]);
    } finally {
      compiled.remove();
    }
  });
});

describe('names', () => {
  it('normalizes an operationId as MCP tool names are', () => {
    expect(toolName('get pets/{id}')).toBe('get_pets_id');
    expect(toolName('日本語')).toBe('');
  });

  it('puts the operation binding in the contract digest, only when present', async () => {
    const tool = { name: 't', inputSchema: { type: 'object' } };
    const plain = await contractDigest(tool);
    const get = await contractDigest({ ...tool, operation: { method: 'get', path: '/a', parameters: [] } });
    const post = await contractDigest({ ...tool, operation: { method: 'post', path: '/a', parameters: [] } });
    expect(new Set([plain, get, post]).size).toBe(3);
    // An MCP tool's digest is what it always was.
    expect(plain).toBe(await contractDigest({ ...tool }));
  });
});

describe('names that are also Object members', () => {
  it('keeps a parameter named constructor and a property named __proto__ as they are', () => {
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          post: {
            operationId: 'a',
            parameters: [{ name: 'constructor', in: 'query', schema: { type: 'string' } }],
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: JSON.parse('{"__proto__":{"type":"string"}}') },
                },
              },
            },
            responses: {},
          },
        },
      },
    });
    const [tool] = operationTools(readDocument(text, '/home/me/o.json')).tools;
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['constructor', 'body']);
    expect(tool?.operation?.parameters).toEqual([
      { name: 'constructor', in: 'query', property: 'constructor' },
    ]);
    expect(JSON.stringify(tool?.inputSchema)).toContain('"properties":{"__proto__":{"type":"string"}}');
  });
});

describe('header and cookie parameters the hub leaves out', () => {
  it('drops headers the hub sets itself and names HTTP does not allow', () => {
    const header = (name: string, where = 'header') => ({ name, in: where, schema: { type: 'string' } });
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          get: {
            operationId: 'a',
            parameters: [
              header('Host'),
              header('Cookie'),
              header('Content-Length'),
              header('Transfer-Encoding'),
              header('Connection'),
              header('bad name'),
              header('bad;cookie', 'cookie'),
              header('X-Ok'),
              header('ok', 'cookie'),
            ],
            responses: {},
          },
        },
      },
    });
    const [tool] = operationTools(readDocument(text, '/home/me/o.json')).tools;
    expect(tool?.operation?.parameters.map((p) => p.name)).toEqual(['X-Ok', 'ok']);
  });
});

describe('OAuth 2 and OpenID Connect schemes', () => {
  /** A small document whose operations use the schemes given, with the scopes given. */
  function withSchemes(schemes: Record<string, unknown>, uses: Record<string, string[]>[]) {
    const root = {
      openapi: '3.0.3',
      info: { title: 'Schemes', version: '1' },
      servers: [{ url: 'http://127.0.0.1:9/v1' }],
      components: { securitySchemes: schemes },
      paths: Object.fromEntries(
        uses.map((security, i) => [
          `/thing${i}`,
          {
            get: {
              operationId: `getThing${i}`,
              security: [security],
              responses: { '200': { description: 'ok' } },
            },
          },
        ]),
      ),
    };
    return readDocument(JSON.stringify(root), '/schemes.json');
  }
  const code = {
    authorizationUrl: 'http://127.0.0.1:9/authorize',
    tokenUrl: 'http://127.0.0.1:9/token',
    scopes: { 'read:things': 'read', 'write:things': 'write', unused: 'never asked' },
  };

  it('reads an authorization code flow with every scope the operations list, delivered as a sign-in', () => {
    const document = withSchemes({ auth: { type: 'oauth2', flows: { authorizationCode: code } } }, [
      { auth: ['read:things'] },
      { auth: ['write:things', 'read:things'] },
    ]);
    expect(credentialAsks(document)).toEqual([
      {
        scheme: 'auth',
        oauth: {
          authorizationUrl: 'http://127.0.0.1:9/authorize',
          tokenUrl: 'http://127.0.0.1:9/token',
          scopes: ['read:things', 'write:things'],
        },
        delivery: { kind: 'oauth' },
        label: 'OAuth 2 sign-in (authorization code flow)',
      },
    ]);
  });

  it('names the flows and schemes it does not support, and a flow without usable URLs', () => {
    const document = withSchemes(
      {
        implicit: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: code.authorizationUrl, scopes: {} } },
        },
        machine: {
          type: 'oauth2',
          flows: {
            password: { tokenUrl: code.tokenUrl, scopes: {} },
            clientCredentials: { tokenUrl: code.tokenUrl, scopes: {} },
          },
        },
        broken: { type: 'oauth2', flows: { authorizationCode: { ...code, tokenUrl: 'file:///etc/passwd' } } },
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'http://127.0.0.1:9/.well-known/openid-configuration',
        },
      },
      [{ implicit: [] }, { machine: [] }, { broken: [] }, { oidc: [] }],
    );
    expect(credentialAsks(document)).toEqual([
      {
        scheme: 'implicit',
        label:
          'OAuth 2 with the implicit flow, which the hub does not support (only the authorization code flow can be signed in to)',
      },
      {
        scheme: 'machine',
        label:
          'OAuth 2 with the password and clientCredentials flows, which the hub does not support (only the authorization code flow can be signed in to)',
      },
      {
        scheme: 'broken',
        label: 'OAuth 2 authorization code flow without a usable http(s) authorizationUrl and tokenUrl',
      },
      {
        scheme: 'oidc',
        label: 'OpenID Connect sign-in, which the hub does not support for OpenAPI sources yet',
      },
    ]);
  });
});
