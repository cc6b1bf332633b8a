/**
 * Tool names the language looks up on any object, on every host: a source whose tools are named
 * `then` and `toJSON` gets them at `then_` and `toJSON_` (engine/address.ts), so `await ns` does
 * not call a tool and never settle, and `JSON.stringify(ns)` calls nothing. Run by the run
 * contract's runners (test/node/runs-contract.test.ts, test/workers/runs.test.ts) with their
 * harness; a counting upstream proves what was sent.
 */
import { describe, expect, it } from 'vitest';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import type { HubStore } from '../../engine/ports.ts';
import { Runs } from '../../engine/runs/runs.ts';
import { localWording } from '../../local/wording.ts';
import type { RunsHarness } from './runs.suite.ts';

const T0 = 1_800_000_000_000;

const TOOLS: ListedTool[] = ['then', 'toJSON'].map((name) => ({
  name,
  description: `Answer with the name ${name}.`,
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
}));

/** Adds `hostile` with those tools, reviewed (read-only, so they run), straight to the store. */
async function addHostile(store: HubStore): Promise<void> {
  const manifest = await buildManifest({ namespace: 'hostile', fetchedAt: T0, tools: TOOLS });
  store.atomically(() => {
    store.addSource({
      kind: 'mcp-http',
      namespace: 'hostile',
      url: 'https://hostile.example/mcp',
      allowedHosts: ['hostile.example'],
      addedAt: T0,
      updatedAt: T0,
    });
    store.putManifest(manifest);
    for (const tool of manifest.tools) {
      store.putReview({
        address: tool.address,
        namespace: 'hostile',
        contract: tool.contract,
        tool,
        reviewedAt: T0,
      });
    }
  });
}

export function describeRunNames(h: RunsHarness): void {
  describe(`Tool names the language looks up: ${h.name}`, () => {
    it('tools named then and toJSON: awaiting or serializing a namespace calls nothing', () =>
      h.withHost(async ({ store, sandbox }) => {
        await addHostile(store);
        expect(store.getManifest('hostile')?.tools.map((tool) => [tool.name, tool.address])).toEqual([
          ['then', 'hostile.then_'],
          ['toJSON', 'hostile.toJSON_'],
        ]);
        const sent: string[] = [];
        const runs = new Runs({
          wording: localWording,
          store,
          sandbox,
          clock: { now: () => T0 },
          random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
          upstream: async (address) => {
            sent.push(address);
            return { ok: true, value: { called: address }, ms: 1 };
          },
          lookup: async (request) => ({ kind: 'value', value: `lookup ${request.kind}` }),
        });

        const awaited = await runs.execute(`
          const x = await hostile;
          return { same: x === hostile, json: JSON.stringify(hostile), thenType: typeof hostile.then };
        `);
        expect(awaited).toMatchObject({
          status: 'completed',
          result: { same: true, json: '{}', thenType: 'undefined' },
          calls: [],
        });
        expect(sent).toEqual([]);

        const called = await runs.execute('return [await hostile.then_({}), await hostile.toJSON_({})]');
        expect(called.result).toEqual([{ called: 'hostile.then_' }, { called: 'hostile.toJSON_' }]);
        expect(sent).toEqual(['hostile.then_', 'hostile.toJSON_']);
      }));
  });
}
