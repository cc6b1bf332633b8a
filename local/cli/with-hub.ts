/**
 * Opens the local hub for one CLI command or one `serve`: creates the home on first use (saying
 * so), wires the engine's Hub to the local store, the MCP connector and the secret store, and
 * the runs to the QuickJS sandbox (started on first use), and closes all of it at the end.
 * `withHub` is the one-command form; `openHub` is the same wiring for a process that serves. The
 * secret store opens on first use only, so the keychain-fallback notice is printed exactly when
 * a secret is read or written.
 */
import { readFileSync } from 'node:fs';
import { createEngine } from '../../engine/engine.ts';
import type { Hub } from '../../engine/hub.ts';
import type { Lookup } from '../../engine/lookup.ts';
import type { Sandbox } from '../../engine/ports.ts';
import type { Runs } from '../../engine/runs/runs.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { cryptoRandom, systemClock } from '../../engine/system.ts';
import { homePaths } from '../home.ts';
import { initHub, type LocalHub, openLocalHub } from '../local-hub.ts';
import { openSecretStore } from '../secret-store.ts';
import { localConnector } from '../sources/stdio-launcher.ts';
import type { Output } from './output.ts';

/** The CLI's version (package.json), which the hub reports to sources and MCP clients. */
export const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** What a command may use besides the Hub: runs (with the sandbox, started on first use) and lookups. */
export interface HubContext {
  runs(): Promise<Runs>;
  lookup: Lookup;
}

/** An open hub: the engine, its context, the local hub's files, and how to close all of it. */
export interface OpenHub {
  hub: Hub;
  context: HubContext;
  local: LocalHub;
  close(): Promise<void>;
}

/** Opens the hub at CAPABILITIES_HOME (creating it on first use); `close()` when done. */
export function openHub(output: Output): OpenHub {
  const paths = homePaths();
  const init = initHub(paths, Date.now());
  if (init.created.length > 0) output.note(`Created the hub ${init.hubId} at ${paths.hub}.`);
  const local = openLocalHub(paths, Date.now());
  const connector = localConnector({ version });
  let secrets: SecretStore | undefined;
  const lazySecrets: SecretStore = {
    get where() {
      return open().where;
    },
    get: (key) => open().get(key),
    set: (key, value) => open().set(key, value),
    delete: (key) => open().delete(key),
  };
  function open(): SecretStore {
    secrets ??= openSecretStore(paths.envFile, (text) => output.note(text));
    return secrets;
  }
  let sandbox: Sandbox | undefined;
  const engine = createEngine({
    store: local.store,
    connector,
    secrets: lazySecrets,
    clock: systemClock,
    random: cryptoRandom,
    sandbox: async () => {
      const { QuickJsSandbox } = await import('../quickjs-sandbox.ts');
      sandbox ??= new QuickJsSandbox({ poolSize: 2 });
      return sandbox;
    },
  });
  const { hub, lookup } = engine;
  return {
    hub,
    local,
    context: { lookup, runs: engine.runs },
    async close() {
      await sandbox?.close();
      await connector.close();
      local.close();
    },
  };
}

/** Runs `body` on the open hub and closes it afterwards, whatever happens. */
export async function withHub<T>(
  output: Output,
  body: (hub: Hub, context: HubContext) => Promise<T>,
): Promise<T> {
  const open = openHub(output);
  try {
    return await body(open.hub, open.context);
  } finally {
    await open.close();
  }
}
