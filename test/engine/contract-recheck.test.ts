/**
 * ContractRecheck (engine/sources/contract-recheck.ts): before a run attempt's first call to an
 * MCP source is decided, the source is listed once, however many of the attempt's calls wait at
 * once; the attempt's later calls, and an OpenAPI source's, list nothing; another attempt lists
 * again; a namespace the hub does not hold is refused as not found (the call gate then decides on
 * the store as it is). The end-to-end attack is test/invariants/i3-authority.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ContractRecheck } from '../../engine/sources/contract-recheck.ts';
import { localWording } from '../../local/wording.ts';
import { hubErrorOf } from '../hub-error.ts';
import { boardStoreEach } from '../node/board-store.ts';

const board = boardStoreEach('recheck');

/** A recheck whose listings are recorded in `listed`, each taking a moment so calls overlap. */
function recheck(listed: string[]): ContractRecheck {
  return new ContractRecheck({
    store: board.store,
    wording: localWording,
    refresh: async (namespace) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      listed.push(namespace);
    },
  });
}

describe('ContractRecheck', () => {
  it('lists a source once per attempt, however many of its calls wait at once', async () => {
    const listed: string[] = [];
    const rechecks = recheck(listed);
    await Promise.all(Array.from({ length: 5 }, () => rechecks.recheck('board', 'run_a:1')));
    expect(listed).toEqual(['board']);
    await rechecks.recheck('board', 'run_a:1');
    expect(listed).toEqual(['board']);
    await rechecks.recheck('board', 'run_a:2');
    await rechecks.recheck('board', 'run_b:1');
    expect(listed).toEqual(['board', 'board', 'board']);
  });

  it('lists nothing for an OpenAPI source: its operations are pinned when reviewed', async () => {
    const listed: string[] = [];
    board.store.addSource({
      kind: 'openapi',
      namespace: 'api',
      document: 'https://api.example/openapi.json',
      url: 'https://api.example/',
      allowedHosts: ['api.example'],
      addedAt: 0,
      updatedAt: 0,
    });
    await recheck(listed).recheck('api', 'run_a:1');
    expect(listed).toEqual([]);
  });

  it('refuses a namespace the hub does not hold', async () => {
    const listed: string[] = [];
    const error = await hubErrorOf(() => recheck(listed).recheck('nowhere', 'run_a:1'));
    expect(error.code).toBe('not_found');
    expect(listed).toEqual([]);
  });
});
