/**
 * Contract and argument digests (engine/digest.ts) in Node: a known answer checked against
 * node:crypto, the whole corpus against the golden file test/workers/contract-digest.test.ts
 * also checks inside workerd, independence from key order, and sensitivity to every part of
 * what a tool claims (spec: Concepts, Tool contract).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../engine/contracts/names.ts';
import { argsDigest, contractDigest, sha256Hex } from '../../engine/digest.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import { CORPUS_TOOL_COUNT, corpus, corpusContracts } from '../corpus.ts';
import golden from '../fixtures/corpus-contracts.json';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A small tool, written out by hand; its canonical form and digest are spelled out below. */
const ADD: ListedTool = {
  name: 'add',
  title: 'Add numbers',
  description: 'Adds two numbers — exactly.',
  inputSchema: {
    type: 'object',
    properties: { b: { type: 'number' }, a: { type: 'number' } },
    required: ['a', 'b'],
  },
  annotations: { title: 'Add', readOnlyHint: true },
};
const ADD_CANONICAL =
  '{"annotations":{"readOnlyHint":true,"title":"Add"},"description":"Adds two numbers — exactly.",' +
  '"inputSchema":{"properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],' +
  '"type":"object"},"name":"add","outputSchema":null}';
/** sha256 of ADD_CANONICAL as UTF-8, computed outside this code base (Python's hashlib). */
const ADD_DIGEST = 'b9266787b1d21afd3894d0448cb7687714bcc8fa6a6a0b5549bf16df92ceb8d1';

describe('known answers', () => {
  it('digests the canonical JSON of a hand-written tool as node:crypto does', async () => {
    expect(nodeSha256(ADD_CANONICAL)).toBe(ADD_DIGEST);
    expect(await contractDigest(ADD)).toBe(ADD_DIGEST);
  });

  it('hashes UTF-8 bytes, not UTF-16 code units', async () => {
    for (const text of ['', 'abc', 'é', '😀', '\u2028', 'Adds two numbers — exactly.']) {
      expect(await sha256Hex(text)).toBe(nodeSha256(text));
    }
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('digests arguments as their canonical JSON', async () => {
    expect(await argsDigest({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(await argsDigest({ b: [2, 1], a: 'x' })).toBe(nodeSha256('{"a":"x","b":[2,1]}'));
    expect(await argsDigest(undefined)).toBe(nodeSha256('null'));
  });
});

describe('the corpus', () => {
  it('has the contract digests of the golden file (the same file workerd checks)', async () => {
    const contracts = await corpusContracts();
    expect(Object.keys(contracts)).toHaveLength(CORPUS_TOOL_COUNT);
    expect(contracts).toEqual(golden);
  });

  it.each(corpus.map((source) => [source.namespace, source] as const))(
    '%s: digests do not depend on key order, schemas included',
    async (_namespace, source) => {
      const digests = async (tools: ListedTool[]) =>
        (await buildManifest({ namespace: source.namespace, fetchedAt: 0, tools })).tools.map(
          (t) => t.contract,
        );
      const expected = await digests(source.tools);
      const random = seeded(source.namespace.length * 7919);
      const reversed = source.tools.map((tool) => reorderKeys(tool, (keys) => keys.reverse()));
      const shuffled = source.tools.map((tool) => reorderKeys(tool, (keys) => shuffle(keys, random)));
      expect(JSON.stringify(reversed)).not.toBe(JSON.stringify(source.tools));
      expect(await digests(reversed)).toEqual(expected);
      expect(await digests(shuffled)).toEqual(expected);
    },
  );
});

describe('what the contract covers', () => {
  const schema = (properties: Record<string, JsonValue>, required = ['a', 'b']) => ({
    type: 'object',
    properties,
    required,
  });

  it('rebuilds the same digest from the same parts (so each change below is the only change)', async () => {
    const inputSchema = schema({ a: { type: 'number' }, b: { type: 'number' } });
    expect(await contractDigest({ ...ADD, inputSchema })).toBe(ADD_DIGEST);
  });

  it.each<[string, Partial<ListedTool>]>([
    ['the name', { name: 'sum' }],
    ['the description', { description: 'Adds two numbers.' }],
    ['a description that only gains a space', { description: 'Adds two numbers — exactly. ' }],
    ['one schema property', { inputSchema: schema({ a: { type: 'number' }, b: { type: 'string' } }) }],
    [
      'a new optional schema property',
      { inputSchema: schema({ a: { type: 'number' }, b: { type: 'number' }, c: {} }) },
    ],
    [
      'the order of `required`',
      { inputSchema: schema({ a: { type: 'number' }, b: { type: 'number' } }, ['b', 'a']) },
    ],
    ['one annotation', { annotations: { title: 'Add', readOnlyHint: false } }],
    ['a new annotation', { annotations: { title: 'Add', readOnlyHint: true, destructiveHint: false } }],
    ['annotations dropped', { annotations: undefined }],
    ['annotations emptied (an empty object is not an absent one)', { annotations: {} }],
    ['an output schema', { outputSchema: { type: 'object' } }],
  ])('changes with %s', async (_label, change) => {
    expect(await contractDigest({ ...ADD, ...change })).not.toBe(ADD_DIGEST);
  });

  it('does not cover the display title (the spec lists name, description, schemas, annotations)', async () => {
    const retitled: ListedTool = { ...ADD, title: 'Something else' };
    const manifest = await buildManifest({ namespace: 'math', fetchedAt: 0, tools: [retitled] });
    expect(manifest.tools[0]?.contract).toBe(ADD_DIGEST);
  });

  it('treats an absent member and an undefined one alike', async () => {
    const { description: _, ...bare } = ADD;
    expect(await contractDigest({ ...bare, description: undefined })).toBe(await contractDigest(bare));
  });

  it('changes when a real corpus tool changes one nested schema property', async () => {
    const source = corpus.find((s) => s.namespace === 'github');
    const tool = source?.tools.find((t) => t.name === 'create_issue');
    if (!tool) throw new Error('github.create_issue is missing from the corpus');
    const changed = structuredClone(tool);
    const properties = changed.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toContain('title');
    properties.title = { ...properties.title, type: 'number' };
    expect(await contractDigest(changed)).not.toBe(await contractDigest(tool));
    expect(await contractDigest(structuredClone(tool))).toBe(golden['github.create_issue']);
  });
});

describe('argsDigest', () => {
  it('does not depend on key order, at any depth', async () => {
    const a = { owner: 'o', repo: 'r', labels: ['bug', 'p1'], body: { text: 't', meta: { x: 1, y: 2 } } };
    const b = { body: { meta: { y: 2, x: 1 }, text: 't' }, labels: ['bug', 'p1'], repo: 'r', owner: 'o' };
    expect(await argsDigest(b)).toBe(await argsDigest(a));
  });

  it('changes with any value, and with array order', async () => {
    const a = await argsDigest({ labels: ['bug', 'p1'], n: 1 });
    expect(await argsDigest({ labels: ['p1', 'bug'], n: 1 })).not.toBe(a);
    expect(await argsDigest({ labels: ['bug', 'p1'], n: 2 })).not.toBe(a);
    expect(await argsDigest({ labels: ['bug', 'p1'], n: '1' })).not.toBe(a);
  });
});

/** A copy of `value` whose every object has its keys in the order `order` gives. */
function reorderKeys<T>(value: T, order: (keys: string[]) => string[]): T {
  if (Array.isArray(value)) return value.map((item: unknown) => reorderKeys(item, order)) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = order(Object.keys(record));
  return Object.fromEntries(keys.map((key) => [key, reorderKeys(record[key], order)])) as T;
}

/** A small deterministic PRNG (mulberry32), so a failing shuffle can be replayed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates, in place. */
function shuffle(keys: string[], random: () => number): string[] {
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  return keys;
}
