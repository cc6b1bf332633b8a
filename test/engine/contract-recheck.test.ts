/**
 * ContractRecheck (engine/sources/contract-recheck.ts): before a call is decided, a source whose
 * session has not listed its tools is listed once, however many calls wait at once; a session
 * that has listed, or a connector that never needs to (OpenAPI), lists nothing; a namespace the
 * hub does not hold is refused as not found (the call gate then decides on the store as it is).
 * The end-to-end attack is test/invariants/i3-authority.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Credentials, NO_CREDENTIALS, type SourceConnector } from '../../engine/sources/connector.ts';
import { ContractRecheck } from '../../engine/sources/contract-recheck.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { hubErrorOf } from '../hub-error.ts';

let dir: string;
let local: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'recheck-'));
  local = openLocalStore(join(dir, 'hub.db'), 0);
  local.store.addSource({
    kind: 'mcp-http',
    namespace: 'board',
    url: 'https://board.example/mcp',
    allowedHosts: ['board.example'],
    addedAt: 0,
    updatedAt: 0,
  });
});
afterEach(() => {
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A connector whose session has listed or not, as the test says; nothing else is called. */
function connector(listed: () => boolean, withNeedsListing = true): SourceConnector {
  const unused = () => {
    throw new Error('the recheck only asks whether a listing is needed');
  };
  return {
    listTools: unused,
    callTool: unused,
    onToolsChanged: () => undefined,
    health: () => undefined,
    close: async () => undefined,
    ...(withNeedsListing ? { needsListing: async () => !listed() } : {}),
  };
}

function recheck(source: SourceConnector, refreshed: string[]): ContractRecheck {
  return new ContractRecheck({
    store: local.store,
    connector: source,
    upstream: { credentials: async (): Promise<Credentials> => NO_CREDENTIALS },
    wording: localWording,
    refresh: async (namespace) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      refreshed.push(namespace);
    },
  });
}

describe('ContractRecheck', () => {
  it('lists a source whose session has not, once for every call waiting at once', async () => {
    const refreshed: string[] = [];
    const rechecks = recheck(
      connector(() => refreshed.length > 0),
      refreshed,
    );
    await Promise.all(Array.from({ length: 5 }, () => rechecks.recheck('board')));
    expect(refreshed).toEqual(['board']);
    await rechecks.recheck('board');
    expect(refreshed).toEqual(['board']);
  });

  it('lists nothing for a session that has listed, or a connector that never needs to', async () => {
    const refreshed: string[] = [];
    await recheck(
      connector(() => true),
      refreshed,
    ).recheck('board');
    await recheck(
      connector(() => false, false),
      refreshed,
    ).recheck('board');
    expect(refreshed).toEqual([]);
  });

  it('refuses a namespace the hub does not hold', async () => {
    const refreshed: string[] = [];
    const error = await hubErrorOf(() =>
      recheck(
        connector(() => false),
        refreshed,
      ).recheck('nowhere'),
    );
    expect(error.code).toBe('not_found');
    expect(refreshed).toEqual([]);
  });
});
