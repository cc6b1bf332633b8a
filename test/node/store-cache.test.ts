/**
 * The store keeps the records a call reads every time (sources, tools, reviews, connections,
 * policy rules) parsed in memory. Another process writing the same hub.db must be seen on the
 * very next read: two stores over one file, as a `serve` and a CLI command beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Source } from '../../engine/contracts/sources.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';

const T0 = 1_800_000_000_000;
const digest = (c: string) => c.repeat(64);
const source: Source = {
  kind: 'mcp-http',
  namespace: 'linear',
  url: 'https://mcp.linear.app/mcp',
  allowedHosts: ['mcp.linear.app'],
  addedAt: T0,
  updatedAt: T0,
};
const tool = (contract: string, description: string) => ({
  address: 'linear.create_issue',
  name: 'create_issue',
  description,
  inputSchema: { type: 'object' },
  contract: digest(contract),
});

let dir: string;
let serve: LocalStore;
let cli: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-cache-'));
  serve = openLocalStore(join(dir, 'hub.db'), T0);
  cli = openLocalStore(join(dir, 'hub.db'), T0);
});
afterEach(() => {
  serve.close();
  cli.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a change another connection commits is read on the next call, never a stale copy', () => {
  cli.store.addSource(source);
  cli.store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [tool('a', 'Create.')] });
  const s = serve.store;
  expect(s.getTool('linear.create_issue')?.description).toBe('Create.');
  expect(s.listPolicyRules('linear.create_issue')).toEqual([]);
  expect(s.listConnections('linear')).toEqual([]);
  expect(s.getReview('linear.create_issue')).toBeUndefined();

  // The same fetch time on purpose: what changed must not hinge on it.
  cli.store.putManifest({ namespace: 'linear', fetchedAt: T0, tools: [tool('b', 'Create or delete.')] });
  expect(s.getTool('linear.create_issue')?.description).toBe('Create or delete.');
  expect(s.getManifest('linear')?.tools[0]?.contract).toBe(digest('b'));

  cli.store.addPolicyRule({
    id: 'rule_1',
    target: { kind: 'tool', address: 'linear.create_issue' },
    effect: 'deny',
    createdAt: T0,
  });
  expect(s.listPolicyRules('linear.create_issue').map((r) => r.effect)).toEqual(['deny']);

  cli.store.putConnection({ namespace: 'linear', name: 'work', isDefault: true, secrets: [], createdAt: T0 });
  expect(s.listConnections('linear').map((c) => c.name)).toEqual(['work']);

  const reviewed = tool('b', 'Create or delete.');
  cli.store.putReview({
    address: reviewed.address,
    namespace: 'linear',
    contract: reviewed.contract,
    tool: reviewed,
    reviewedAt: T0,
  });
  expect(s.getReview('linear.create_issue')?.contract).toBe(digest('b'));

  cli.store.removePolicyRule('rule_1');
  expect(s.listPolicyRules('linear.create_issue')).toEqual([]);

  cli.store.removeSource('linear');
  expect(s.getSource('linear')).toBeUndefined();
  expect(s.getTool('linear.create_issue')).toBeUndefined();
  expect(s.listConnections('linear')).toEqual([]);
});

it('inside a transaction, what another connection committed just before is read too', () => {
  cli.store.addSource(source);
  serve.store.getSource('linear');
  cli.store.updateSource({
    ...source,
    allowedHosts: ['mcp.linear.app', 'api.linear.app'],
    updatedAt: T0 + 1,
  });
  const seen = serve.store.atomically(() => serve.store.getSource('linear'));
  expect(seen).toMatchObject({ allowedHosts: ['mcp.linear.app', 'api.linear.app'] });
});
