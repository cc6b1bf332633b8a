/**
 * ContractRecheck (engine/sources/contract-recheck.ts): before a run attempt's first call to an
 * MCP source is decided, the source is listed once, however many of the attempt's calls wait at
 * once; the attempt's later calls, and an OpenAPI source's, list nothing; another attempt lists
 * again; a read that repeats this process's last never undoes a newer one in the store; a namespace the hub does not hold is refused as not found (the call gate then decides on
 * the store as it is). The end-to-end attack is test/invariants/i3-authority.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../engine/contracts/sources.ts';
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

  it('stores a changed read, but never undoes a newer one another process stored', async () => {
    const manifest = (contract: string): Manifest => ({
      namespace: 'board',
      fetchedAt: 0,
      tools: [{ address: 'board.post', name: 'post', inputSchema: { type: 'object' }, contract }],
    });
    // What this process's server lists at each attempt, and what the store holds then.
    let serverSays = 'c1';
    let stored: Manifest | undefined = manifest('c1');
    const kept: boolean[] = [];
    const rechecks = new ContractRecheck({
      store: board.store,
      wording: localWording,
      refresh: async (_namespace, keep) => {
        const read = manifest(serverSays);
        const keeps = keep(stored, read);
        kept.push(keeps);
        if (keeps) stored = read;
      },
    });
    await rechecks.recheck('board', 'run_a:1'); // the same as stored: nothing to write
    serverSays = 'c2';
    await rechecks.recheck('board', 'run_b:1'); // this server changed: stored
    expect(stored?.tools[0]?.contract).toBe('c2');
    stored = manifest('c3'); // another process read a server started later
    await rechecks.recheck('board', 'run_c:1'); // this server still says c2: the store is kept
    expect(kept).toEqual([false, true, false]);
    expect(stored?.tools[0]?.contract).toBe('c3');
  });

  it('refuses a namespace the hub does not hold', async () => {
    const listed: string[] = [];
    const error = await hubErrorOf(() => recheck(listed).recheck('nowhere', 'run_a:1'));
    expect(error.code).toBe('not_found');
    expect(listed).toEqual([]);
  });
});
