/** Source logic with exact expectations: tool results, manifest diffs, namespace proposals, review classes. */
import { describe, expect, it } from 'vitest';
import { toolValue } from '../../engine/connectors/tool-result.ts';
import { buildManifest } from '../../engine/manifest.ts';
import { describeChange, diffManifests } from '../../engine/sources/manifest-diff.ts';
import { proposeNamespace } from '../../engine/sources/namespace.ts';
import { classify } from '../../engine/sources/review.ts';

describe('what a call returns to code', () => {
  it('prefers structured content', () => {
    expect(toolValue({ content: [{ type: 'text', text: 'ignored' }], structuredContent: { a: 1 } })).toEqual({
      ok: true,
      value: { a: 1 },
    });
  });
  it('parses text that is JSON, keeps text that is not', () => {
    expect(toolValue({ content: [{ type: 'text', text: ' [1, 2] ' }] })).toEqual({ ok: true, value: [1, 2] });
    expect(toolValue({ content: [{ type: 'text', text: '42 apples' }] })).toEqual({
      ok: true,
      value: '42 apples',
    });
    expect(
      toolValue({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ ok: true, value: 'a\nb' });
    expect(toolValue({ content: [] })).toEqual({ ok: true, value: null });
  });
  it('turns other content into small typed objects', () => {
    expect(
      toolValue({
        content: [
          { type: 'text', text: 'here' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
        ],
      }),
    ).toEqual({
      ok: true,
      value: [
        'here',
        { type: 'image', mimeType: 'image/png', bytes: 3 },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      ],
    });
  });
  it('makes isError a failure with the upstream message', () => {
    expect(toolValue({ isError: true, content: [{ type: 'text', text: 'rate limited' }] })).toEqual({
      ok: false,
      message: 'rate limited',
    });
  });
});

describe('manifest diffs', () => {
  it('names new, removed and changed tools with the parts that changed', async () => {
    const tool = (name: string, description: string, inputSchema = { type: 'object' }) => ({
      name,
      description,
      inputSchema,
    });
    const before = await buildManifest({
      namespace: 'n',
      fetchedAt: 0,
      tools: [tool('a', 'A.'), tool('b', 'B.'), tool('c', 'C.')],
    });
    const after = await buildManifest({
      namespace: 'n',
      fetchedAt: 1,
      tools: [
        tool('a', 'A, and more.'),
        tool('b', 'B.', { type: 'object', properties: { x: { type: 'string' } } } as never),
        tool('d', 'D.'),
      ],
    });
    expect(diffManifests(before, after)).toEqual({
      added: ['n.d'],
      removed: ['n.c'],
      changed: [
        { address: 'n.a', parts: ['description'] },
        { address: 'n.b', parts: ['input schema'] },
      ],
    });
    expect(describeChange(['description', 'annotations'])).toBe(
      'changed upstream since you approved it: description, annotations',
    );
  });
  it('names a changed method, path or parameters of an OpenAPI operation as such', async () => {
    const at = (path: string) =>
      buildManifest({
        namespace: 'n',
        fetchedAt: 0,
        tools: [
          {
            name: 'a',
            description: 'A.',
            inputSchema: { type: 'object' },
            operation: { method: 'get', path, parameters: [] },
          },
        ],
      });
    const [before, after] = await Promise.all([at('/things'), at('/things/delete-all')]);
    expect(diffManifests(before, after).changed).toEqual([
      { address: 'n.a', parts: ['method, path or parameters'] },
    ]);
  });
});

describe('namespace proposals', () => {
  const none = new Set<string>();
  it.each([
    [{ serverName: 'github-mcp-server' }, 'github'],
    [{ serverName: 'secure-filesystem-server' }, 'filesystem'],
    [{ serverName: 'memory-server' }, 'memory'],
    [{ serverName: 'Notion API' }, 'notion_api'],
    [{ url: 'https://mcp.linear.app/mcp' }, 'linear'],
    [{ command: ['npx', '-y', '@modelcontextprotocol/server-memory'] }, 'memory'],
    [{ serverName: 'mcp' }, 'source'],
  ])('%j -> %s', (hints, expected) => {
    expect(proposeNamespace(hints, none)).toBe(expected);
  });
  it('never takes a namespace already used, nor a reserved word', () => {
    expect(proposeNamespace({ serverName: 'memory' }, new Set(['memory', 'memory2']))).toBe('memory3');
    expect(proposeNamespace({ serverName: 'console' }, none)).toBe('console2');
  });
});

describe('review classes', () => {
  const tool = (annotations?: Record<string, boolean>) => ({
    address: 'n.t',
    name: 't',
    inputSchema: {},
    contract: 'a'.repeat(64),
    annotations,
  });
  it('reads annotations; no annotation means it may write', () => {
    expect(classify(tool({ readOnlyHint: true }))).toBe('read-only');
    expect(classify(tool({ readOnlyHint: false, destructiveHint: true }))).toBe('destructive');
    expect(classify(tool({ destructiveHint: false }))).toBe('writes');
    expect(classify(tool())).toBe('writes');
  });
});
