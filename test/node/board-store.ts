/**
 * A hub store for tests of one engine part over a real SQLite file: made before each test in a
 * temporary folder, holding one reviewed-to-be HTTP source `board` (https://board.example/mcp),
 * and removed after. Register it at a file's top level; read `.store` inside a test or hook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { HubStore } from '../../engine/ports.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';

export function boardStoreEach(prefix: string): { readonly store: HubStore } {
  let dir = '';
  let local: LocalStore | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `capabilities-${prefix}-`));
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
    local?.close();
    local = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get store(): HubStore {
      if (!local) throw new Error('the board store exists only inside a test');
      return local.store;
    },
  };
}
