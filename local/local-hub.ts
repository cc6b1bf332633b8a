/**
 * Creating and opening the local hub: its home, hub.json, the store and the token. `initHub`
 * is idempotent and safe to run from several processes at once (each file is created
 * exclusively; the store migrates under its own lock), and says what it made.
 */
import { existsSync } from 'node:fs';
import { HubError } from '../engine/errors.ts';
import type { HubStore } from '../engine/ports.ts';
import {
  ensureDir,
  type HomePaths,
  newHubId,
  newToken,
  readHubFile,
  readToken,
  writeFileAtomic,
  writeHubFile,
} from './home.ts';
import { openLocalStore } from './open-store.ts';

export interface InitReport {
  hubId: string;
  schemaVersion: number;
  /** Paths this call created, in the order it made them; empty when the hub was complete. */
  created: string[];
}

/** Creates whatever part of the hub is missing. Never replaces what exists. */
export function initHub(paths: HomePaths, now: number): InitReport {
  const previousUmask = process.umask(0o077);
  try {
    const created: string[] = [];
    if (ensureDir(paths.root)) created.push(paths.root);
    if (ensureDir(paths.hub)) created.push(paths.hub);

    if (!existsSync(paths.hubFile)) {
      const fresh = {
        hubId: newHubId(),
        schemaVersion: 0,
        createdAt: now,
        settings: { httpPort: 4790, openPages: true },
      };
      if (writeHubFile(paths.hubFile, fresh, { exclusive: true })) created.push(paths.hubFile);
    }
    const hubFile = readHubFile(paths.hubFile);

    const dbExisted = existsSync(paths.db);
    const local = openLocalStore(paths.db, now);
    try {
      if (!dbExisted) created.push(paths.db);
      const storedId = local.store.claimHubId(hubFile.hubId);
      if (storedId !== hubFile.hubId) {
        throw new HubError(
          'corrupt',
          `${paths.db} belongs to hub ${storedId}, but ${paths.hubFile} names hub ${hubFile.hubId}. ` +
            'Put back the hub.json that came with this hub.db, or move one of them away.',
        );
      }
      if (hubFile.schemaVersion !== local.store.schemaVersion) {
        writeHubFile(paths.hubFile, { ...hubFile, schemaVersion: local.store.schemaVersion });
      }
      if (!existsSync(paths.token) && writeFileAtomic(paths.token, `${newToken()}\n`, { exclusive: true })) {
        created.push(paths.token);
      }
      return { hubId: hubFile.hubId, schemaVersion: local.store.schemaVersion, created };
    } finally {
      local.close();
    }
  } finally {
    process.umask(previousUmask);
  }
}

export interface LocalHub {
  hubId: string;
  store: HubStore;
  token: string;
  httpPort: number;
  /** hub.json's `openPages`: whether the hub opens its approval page in the person's browser. */
  openPages: boolean;
  /** The store's WAL checkpointed from a thread of its own from now on (open-store.ts). */
  checkpointAside(): void;
  close(): void;
}

/** Opens an initialized hub. Fails with what to run when it is missing or broken. */
export function openLocalHub(paths: HomePaths, now: number): LocalHub {
  const hubFile = readHubFile(paths.hubFile);
  const token = readToken(paths.token);
  // Never a new empty store in place of a lost one (a serving process would look healthy with it).
  if (!existsSync(paths.db)) {
    throw new HubError(
      'not_found',
      `${paths.db} does not exist: the hub at ${paths.hub} has lost its store (its sources, reviews and runs). Restore it from a backup, or run \`capabilities hub init\` to start an empty one`,
    );
  }
  const previousUmask = process.umask(0o077);
  try {
    const local = openLocalStore(paths.db, now);
    const storedId = local.store.claimHubId(hubFile.hubId);
    if (storedId !== hubFile.hubId) {
      local.close();
      throw new HubError(
        'corrupt',
        `${paths.db} belongs to hub ${storedId}, but ${paths.hubFile} names ${hubFile.hubId}`,
      );
    }
    return {
      hubId: hubFile.hubId,
      store: local.store,
      token,
      httpPort: hubFile.settings.httpPort,
      openPages: hubFile.settings.openPages,
      checkpointAside: local.checkpointAside,
      close: local.close,
    };
  } finally {
    process.umask(previousUmask);
  }
}
