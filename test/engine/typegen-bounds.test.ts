/**
 * Bounded work under `describe` (issue #11, part 3; invariant I7), with exact expectations: a
 * rendering over its character budget stops where the unbounded one would have gone on multiplying
 * a schema's references, one within it is unchanged, and token counts stay exact.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { DECLARED_LIMITS } from '../../engine/connectors/declared-limits.ts';
import { buildManifestWithNotices, type ListedTool } from '../../engine/manifest.ts';
import { renderAnswer } from '../../engine/typegen/answer.ts';
import { countTokens, describeTargets } from '../../engine/typegen/index.ts';
import { resolveTargets } from '../../engine/typegen/targets.ts';
import { corpus } from '../corpus.ts';
import { doublingSchema, letters } from '../fixtures/hostile-tools.ts';

const tool = (name: string, extra: Partial<ListedTool> = {}): ListedTool => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

describe('bounded work under describe', () => {
  it('a rendering over its character budget stops, and one within it is unchanged', async () => {
    const { manifest } = await buildManifestWithNotices(
      { namespace: 'n', fetchedAt: 0, tools: [tool('dag', { inputSchema: doublingSchema(30) })] },
      { ...DECLARED_LIMITS, schemaDepth: 1_000, schemaValues: Number.POSITIVE_INFINITY },
    );
    const { items } = resolveTargets([manifest], ['n.dag']);
    const plan = { depth: Number.POSITIVE_INFINITY, docs: 'full' } as const;
    expect(renderAnswer(items, [], plan, 20_000)).toBeUndefined();
    const answer = describeTargets([manifest], ['n.dag']);
    expect(answer.tokens).toBeLessThanOrEqual(2_500);
    expect(answer.text).toContain('\ttype A6 = unknown;');
    const github = corpus.find((source) => source.namespace === 'github');
    if (!github) throw new Error('the corpus has no github');
    const built = await buildManifestWithNotices({ namespace: 'github', fetchedAt: 0, tools: github.tools });
    const small = resolveTargets([built.manifest], ['github.create_issue']).items;
    expect(renderAnswer(small, [], plan, 20_000)).toBe(renderAnswer(small, [], plan));
    expect(renderAnswer(small, [], plan, 20_000)).toContain('create_issue(input: {');
  });

  it('counts tokens exactly as the encoder does, and stops once past stopAfter', () => {
    const encoder = new Tiktoken(o200kBase);
    const texts = corpus.flatMap((source) => [
      JSON.stringify(source.tools),
      ...source.tools.map((t) => t.description ?? ''),
    ]);
    texts.push('hello world', '<|endoftext|>', 'a  b\n\n\n  c \t\n', ' 😀x', `${'\t'.repeat(9)}x`);
    for (const text of texts) expect(countTokens(text)).toBe(encoder.encode(text, [], []).length);
    expect(countTokens(letters(5_000))).toBeGreaterThan(1_000);
    expect(countTokens(letters(5_000), 100)).toBeGreaterThan(100);
    expect(countTokens(letters(5_000), 100)).toBeLessThan(200);
  });
});
