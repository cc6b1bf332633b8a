/**
 * Opens the local hub for one CLI command or one `serve`: wires the engine to the local store,
 * the MCP connector and the secret store, and the runs to the QuickJS sandbox (started on first
 * use), and closes all of it at the end.
 * `withHub` is the one-command form; `openHub` is the same wiring for a process that serves (and
 * for `dashboard`, `push`, `status`). Neither creates a hub (only `hub init` does): a missing one is
 * `readHubFile`'s error, which names the path it looked at and `capabilities hub init`, so neither
 * a person nor a client sees an empty hub made by mistake. The
 * secret store opens on first use only, so the keychain-fallback notice is printed exactly when
 * a credential is read or written for a source; reading every secret to scrub output (the hub's
 * scrubber knows them all, with the HTTP token, the prompt key and, while signed in to a hosted
 * hub, its tokens) says nothing.
 *
 * Everything a command prints goes through the hub's scrubber (`scrubOutput`).
 */
import { createEngine, type Engine } from '../engine/engine.ts';
import type { Sandbox } from '../engine/sandbox/sandbox.ts';
import { hubOwnSecrets } from '../engine/secrets/hub-secrets.ts';
import type { SecretStore } from '../engine/secrets/secret-store.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import { type Output, scrubOutput } from './cli/output.ts';
import { homePaths } from './home.ts';
import { hostedSecrets } from './hosted/hosted-secrets.ts';
import { type LocalHub, openLocalHub } from './local-hub.ts';
import { VERSION } from './package-files.ts';
import { openSecretStore } from './secret-store.ts';
import { localConnector } from './sources/stdio-launcher.ts';
import { localWording } from './wording.ts';

/** The CLI's version (package.json), which the hub reports to sources and MCP clients. */
export const version = VERSION;

/** An open hub: the engine (its runs start the sandbox on first use), the local hub's files, and how to close all of it. */
export interface OpenHub {
  engine: Engine;
  local: LocalHub;
  /** Settles once the hub's own secrets that live in the secret store are known (the hosted tokens). */
  ownSecretsRead: Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the hub at CAPABILITIES_HOME, which must exist (this never creates one; a missing hub is
 * HubError `not_found` naming where it looked and `capabilities hub init`); `close()` when done.
 */
export function openHub(output: Output): OpenHub {
  const paths = homePaths();
  const local = openLocalHub(paths, Date.now());
  const connector = localConnector({ version });
  // One secret store, opened on first use; its fallback notice is said when a credential is used.
  let secrets: SecretStore | undefined;
  let fallback: string | undefined;
  const store = (): SecretStore => {
    secrets ??= openSecretStore(paths.envFile, (text) => {
      fallback = text;
    });
    return secrets;
  };
  const open = (): SecretStore => {
    const opened = store();
    if (fallback !== undefined) output.note(fallback);
    fallback = undefined;
    return opened;
  };
  const lazySecrets = onFirstUse(open);
  const quietSecrets = onFirstUse(store);
  const hubOwn = hubOwnSecrets(local.store, [local.token]);
  const hosted = hostedSecrets(paths.hostedFile, () => quietSecrets);
  let sandbox: Sandbox | undefined;
  const engine = createEngine({
    store: local.store,
    connector,
    secrets: lazySecrets,
    clock: systemClock,
    random: cryptoRandom,
    wording: localWording,
    scrubSecrets: quietSecrets,
    ownSecrets: () => [...hubOwn(), ...hosted.values()],
    ownSecretsRefresh: () => hosted.refresh(),
    sandbox: async () => {
      // Runs journal every call, two commits each: from the first run on, the WAL's checkpoints
      // (and their fsyncs) happen beside those commits instead of inside them.
      local.checkpointAside();
      const { QuickJsSandbox } = await import('./quickjs/sandbox.ts');
      sandbox ??= new QuickJsSandbox({ poolSize: 2 });
      return sandbox;
    },
  });
  scrubOutput(() => engine.secrets.scrubber);
  return {
    engine,
    local,
    ownSecretsRead: hosted.ready,
    async close() {
      await sandbox?.close();
      await connector.close();
      local.close();
    },
  };
}

/** A SecretStore that opens the real one (`open`) when first used. */
function onFirstUse(open: () => SecretStore): SecretStore {
  return {
    get where() {
      return open().where;
    },
    get: (key) => open().get(key),
    set: (key, value) => open().set(key, value),
    delete: (key) => open().delete(key),
  };
}

/**
 * Runs `body` on the open hub and closes it afterwards, whatever happens. Like serving, it never
 * creates a hub: only `hub init` does, so a mistyped CAPABILITIES_HOME is an error naming the
 * path and `hub init`, never a new empty hub that looks healthy.
 */
export async function withHub<T>(output: Output, body: (engine: Engine) => Promise<T>): Promise<T> {
  const open = openHub(output);
  try {
    await open.ownSecretsRead;
    await open.engine.secrets.refresh();
    return await body(open.engine);
  } finally {
    await open.close();
  }
}
