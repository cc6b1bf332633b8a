/**
 * Contract digests inside workerd: every corpus tool, built by buildManifest here, must have
 * the digest Node wrote into test/fixtures/corpus-contracts.json (and that
 * test/engine/contract-digest.test.ts checks in Node), so a tool approved on one host keeps its
 * contract on the other.
 */
import { describe, expect, it } from 'vitest';
import { contractDigest } from '../../engine/digest.ts';
import { CORPUS_TOOL_COUNT, corpusContracts } from '../corpus.ts';
import golden from '../fixtures/corpus-contracts.json';

describe('contract digests in workerd', () => {
  it('match the golden file for every corpus tool', async () => {
    expect(navigator.userAgent).toBe('Cloudflare-Workers');
    const contracts = await corpusContracts();
    expect(Object.keys(contracts)).toHaveLength(CORPUS_TOOL_COUNT);
    expect(contracts).toEqual(golden);
  });

  it('match the known answer for a hand-written tool with non-ASCII text', async () => {
    const digest = await contractDigest({
      name: 'add',
      description: 'Adds two numbers — exactly.',
      inputSchema: {
        type: 'object',
        properties: { b: { type: 'number' }, a: { type: 'number' } },
        required: ['a', 'b'],
      },
      annotations: { title: 'Add', readOnlyHint: true },
    });
    // The same value test/engine/contract-digest.test.ts checks against node:crypto.
    expect(digest).toBe('b9266787b1d21afd3894d0448cb7687714bcc8fa6a6a0b5549bf16df92ceb8d1');
  });
});
