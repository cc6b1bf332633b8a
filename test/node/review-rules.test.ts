/**
 * A review is the person's latest word on a tool (second review of issue #11): every rule pinned
 * to a contract goes, on any connection, so an old `always` never comes back to life when a tool
 * returns to the contract it was given for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import { buildManifest } from '../../engine/manifest.ts';
import { evaluatePolicy } from '../../engine/policy/evaluate.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { addTestSources } from '../conformance/runs.suite.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';

let dir: string;
let local: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-review-rules-'));
  local = openLocalStore(join(dir, 'hub.db'), 0);
});
afterEach(() => {
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

const unused = new Proxy({} as SourceConnector, {
  get: () => () => {
    throw new Error('no upstream in this test');
  },
});

const post = (description: string) => ({
  name: 'post',
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});

it('attack: an old "always" on no connection does not come back when the tool returns to its contract', async () => {
  const store = local.store;
  await addTestSources(store);
  const hub = engineWithoutSandbox({
    wording: localWording,
    store,
    connector: unused,
    clock: { now: () => 1 },
    random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
  });
  const asFirst = await buildManifest({ namespace: 'board', fetchedAt: 2, tools: [post('Post.')] });
  const contractA = asFirst.tools[0]?.contract ?? '';
  store.putManifest(asFirst);
  hub.sources.acceptReview('board', new Map([['board.post', 'ask']]));
  // The person answered "always" for a call on no connection (what pinAlways writes).
  store.addPolicyRule({
    id: 'rule_always',
    target: { kind: 'tool', address: 'board.post' },
    connection: null,
    effect: 'allow',
    contract: contractA,
    createdAt: 3,
  });
  // The tool changes; the person reviews it and says it asks.
  store.putManifest(
    await buildManifest({ namespace: 'board', fetchedAt: 4, tools: [post('Post, and more.')] }),
  );
  hub.sources.acceptReview('board', new Map([['board.post', 'ask']]));
  // It changes back to what "always" was given for; the person reviews it again: it asks.
  store.putManifest(await buildManifest({ namespace: 'board', fetchedAt: 5, tools: [post('Post.')] }));
  hub.sources.acceptReview('board', new Map([['board.post', 'ask']]));
  const tool = store.getTool('board.post');
  if (!tool) throw new Error('no tool');
  expect(
    evaluatePolicy(
      { address: 'board.post', connection: null },
      tool,
      store.listPolicyRules('board.post'),
      store.getReview('board.post'),
    ),
  ).toMatchObject({ effect: 'ask' });
  expect(store.listPolicyRules('board.post').map((rule) => rule.id)).not.toContain('rule_always');
});
