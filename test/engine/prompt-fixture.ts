/**
 * Shared by the client-prompt tests: a fresh local store in a temp folder, a settable clock,
 * and runs seeded straight into the store as a run that stopped for a person would leave them
 * (status awaiting_input, one pending approval per call).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PendingInput } from '../../engine/contracts/runs.ts';
import type { Clock, HubStore, Random } from '../../engine/ports.ts';
import { ClientPrompt } from '../../engine/runs/client-prompt.ts';
import type { HostWording } from '../../engine/wording.ts';
import { openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';

export const T0 = 1_800_000_000_000;
export const DAY = 24 * 60 * 60 * 1000;

export interface PromptWorld {
  store: HubStore;
  hubId: string;
  clock: Clock & { now(): number; set(ms: number): void };
  random: Random;
  wording: HostWording;
  prompt(hubId?: string): ClientPrompt;
  /** A run waiting for a person on `count` board.post calls; answers their pending ids. */
  seedRun(runId: string, count?: number): string[];
  close(): void;
}

export function promptWorld(hubId = 'hub_test'): PromptWorld {
  const dir = mkdtempSync(join(tmpdir(), 'capabilities-prompt-'));
  const local = openLocalStore(join(dir, 'hub.db'), T0);
  local.store.claimHubId(hubId);
  let now = T0;
  const clock = {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
  };
  const random: Random = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };
  const store = local.store;
  return {
    store,
    hubId,
    clock,
    random,
    wording: localWording,
    prompt: (id = hubId) => new ClientPrompt({ store, hubId: id, clock, random, wording: localWording }),
    seedRun(runId, count = 1) {
      store.createRun({
        id: runId,
        profile: 'default',
        status: 'awaiting_input',
        code: 'await board.post({ text: "hi" })',
        seed: 'ab',
        clockOrigin: T0,
        attempts: 1,
        logs: [],
        notices: [],
        createdAt: T0,
        updatedAt: T0,
      });
      const ids: string[] = [];
      for (let seq = 0; seq < count; seq++) {
        const pending: PendingInput = {
          id: `pending_${runId}_${seq}`,
          runId,
          seq,
          kind: 'approval',
          address: 'board.post',
          connection: seq === 0 ? null : 'work',
          summary: 'Post a message to the board.',
          argsPreview: JSON.stringify({ text: `hello ${seq}` }, null, 2),
          argsDigest: 'ab'.repeat(32),
          contract: 'cd'.repeat(32),
          reason: 'board.post is not read-only, so it asks',
          createdAt: T0,
          expiresAt: T0 + DAY,
        };
        store.addPendingInput(pending);
        ids.push(pending.id);
      }
      return ids;
    },
    close() {
      local.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
