/**
 * The one-line signature `search` prints for a tool (spec: The MCP surface, search), from the
 * same model and printer as `describe`, and `countTokens`, the unit of every budget.
 */
import { describe, expect, it } from 'vitest';
import { countTokens, SIGNATURE_MAX, signatureLine } from '../../engine/typegen/index.ts';
import { manifestOf } from './typegen-fixtures.ts';

const string = { type: 'string' };
const github = manifestOf('github', [
  {
    name: 'createIssue',
    inputSchema: {
      type: 'object',
      properties: { owner: string, repo: string, title: string, body: string, labels: { type: 'array', items: string } },
      required: ['owner', 'repo', 'title'],
    },
    outputSchema: { title: 'Issue', type: 'object', properties: { number: { type: 'integer' } } },
  },
  {
    name: 'search',
    inputSchema: {
      type: 'object',
      properties: {
        who: { $ref: '#/$defs/user' },
        filter: { type: 'object', properties: { a: string } },
        items: { type: 'array', items: { type: 'object', properties: { a: string } } },
        sort: { enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
        extra: { type: 'object' },
        limit: { type: ['number', 'null'] },
        'x-api-key': string,
      },
      $defs: { user: { type: 'object', properties: { login: string } } },
    },
  },
  {
    name: 'wide',
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field${i}`, string])),
      required: ['field3'],
    },
  },
  {
    name: 'either',
    inputSchema: { oneOf: [{ type: 'object', properties: { a: string }, required: ['a'] }, { type: 'object', properties: { b: string }, required: ['b'] }] },
  },
  { name: 'ping', inputSchema: { type: 'object', properties: {}, additionalProperties: false } },
  { name: 'env', inputSchema: { type: 'object' }, outputSchema: { type: 'object', additionalProperties: string } },
]); // biome-ignore format: schemas read better packed
const line = (method: string) => {
  const tool = github.tools.find((t) => t.address === `github.${method}`);
  if (tool === undefined) throw new Error(`no tool ${method}`);
  return signatureLine(tool, github);
};

describe('signatureLine', () => {
  it("prints the spec's example: required members first, optional ones marked, the output by its name", () => {
    expect(line('createIssue')).toBe(
      'github.createIssue(input: { owner: string; repo: string; title: string; body?: string; labels?: string[] }): Promise<Issue>',
    );
  });

  it('abbreviates nested objects to {…}, keeps $defs types by name and cuts unions past four members', () => {
    expect(line('search')).toBe(
      'github.search(input: { who?: User; filter?: {…}; items?: {…}[]; sort?: "a" | "b" | "c" | …; extra?: { [key: string]: unknown }; limit?: number | null; "x-api-key"?: string }): Promise<unknown>',
    );
  });

  it(`stays within ${SIGNATURE_MAX} characters, leaving members out with …`, () => {
    expect(line('wide')).toBe(
      'github.wide(input: { field3: string; field0?: string; field1?: string; field2?: string; field4?: string; field5?: string; field6?: string; field7?: string; field8?: string; … }): Promise<unknown>',
    );
    expect(line('wide').length).toBeLessThanOrEqual(SIGNATURE_MAX);
  });

  it('prints inputs that are not one object, inputs with no members, and outputs too simple to name', () => {
    expect(line('either')).toBe('github.either(input: { a: string } | { b: string }): Promise<unknown>');
    expect(line('ping')).toBe('github.ping(input: {}): Promise<unknown>');
    expect(line('env')).toBe(
      'github.env(input: { [key: string]: unknown }): Promise<{ [key: string]: string }>',
    );
  });

  it("names types as describe does given the manifest; alone, from the tool's own schema", () => {
    const ns = manifestOf('ns', [
      { name: 'a', inputSchema: { type: 'object', properties: { u: { $ref: '#/$defs/user' } }, $defs: { user: { type: 'object', properties: { id: string } } } } },
      { name: 'b', inputSchema: { type: 'object', properties: { u: { $ref: '#/$defs/user' } }, $defs: { user: { type: 'object', properties: { login: string } } } } },
    ]); // biome-ignore format: schemas read better packed
    const [, b] = ns.tools;
    if (b === undefined) throw new Error('no tool b');
    expect(signatureLine(b, ns)).toBe('ns.b(input: { u?: User2 }): Promise<unknown>');
    expect(signatureLine(b)).toBe('ns.b(input: { u?: User }): Promise<unknown>');
  });
});

describe('countTokens', () => {
  it('counts o200k_base tokens, special-token text included as plain text', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('<|endoftext|>')).toBe(7);
  });
});
