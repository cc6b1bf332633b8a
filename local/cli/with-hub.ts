/**
 * Opens the local hub for one CLI command: creates the home on first use (saying so), wires the
 * engine's Hub to the local store, the MCP connector and the secret store, and closes all of it
 * when the command ends. The secret store opens on first use only, so the keychain-fallback
 * notice is printed exactly when a secret is read or written.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hub } from '../../engine/hub.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { homePaths } from '../home.ts';
import { initHub, openLocalHub } from '../local-hub.ts';
import { openSecretStore } from '../secret-store.ts';
import { localConnector } from '../sources/stdio-launcher.ts';
import type { Output } from './output.ts';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export async function withHub<T>(output: Output, body: (hub: Hub) => Promise<T>): Promise<T> {
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
  const hub = new Hub({
    store: local.store,
    connector,
    secrets: lazySecrets,
    clock: { now: () => Date.now() },
    random: { bytes: (n) => new Uint8Array(randomBytes(n)) },
  });
  try {
    return await body(hub);
  } finally {
    await connector.close();
    local.close();
  }
}
