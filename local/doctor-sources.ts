/**
 * `hub doctor`'s source checks: each source is reached the way a call would reach it (its
 * default connection's secrets resolved, stdio servers started) and asked for its tool list,
 * with a short timeout. A failing source reports what happened, the tail of its stderr and,
 * for the person, its command line or URL; all of it scrubbed of every secret the hub holds (a
 * stderr tail may quote any connection's token).
 */
import { isHubError } from '../engine/errors.ts';
import { HubSecrets, hubOwnSecrets } from '../engine/secrets/hub-secrets.ts';
import { Sources } from '../engine/sources/sources.ts';
import { Upstream } from '../engine/sources/upstream.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import type { Check } from './doctor.ts';
import type { HomePaths } from './home.ts';
import { openLocalHub } from './local-hub.ts';
import { openSecretStore } from './secret-store.ts';
import { localConnector } from './sources/stdio-launcher.ts';
import { localWording } from './wording.ts';

export async function sourceChecks(paths: HomePaths, version: string): Promise<Check[]> {
  const local = openLocalHub(paths, Date.now());
  const connector = localConnector({ version, connectTimeoutMs: 10_000, listTimeoutMs: 10_000 });
  const notices: string[] = [];
  const secrets = openSecretStore(paths.envFile, (text) => notices.push(text));
  const hubSecrets = new HubSecrets({
    store: local.store,
    secrets,
    own: hubOwnSecrets(local.store, [local.token]),
    clock: systemClock,
  });
  const upstream = new Upstream({
    store: local.store,
    connector,
    secrets,
    clock: systemClock,
    random: cryptoRandom,
    hubSecrets,
    wording: localWording,
  });
  const sources = new Sources({
    store: local.store,
    connector,
    secrets,
    clock: systemClock,
    random: cryptoRandom,
    hubSecrets,
    upstream,
    wording: localWording,
  });
  try {
    await hubSecrets.refresh();
    const checks: Check[] = [];
    for (const source of local.store.listSources()) {
      const name = `source ${source.namespace}`;
      try {
        const listed = await connector.listTools(source, await upstream.credentials(source.namespace));
        const waiting = sources.pendingReview(source.namespace).length;
        checks.push({
          name,
          level: waiting > 0 ? 'warn' : 'ok',
          detail: `${listed.tools.length} tools${waiting > 0 ? `, ${waiting} wait for review` : ''}`,
          ...(waiting > 0 ? { fix: `capabilities hub review ${source.namespace}` } : {}),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const where = isHubError(error) && error.detail !== undefined ? ` (${error.detail})` : '';
        checks.push({ name, level: 'fail', detail: hubSecrets.scrubber.text(`${message}${where}`) });
      }
    }
    return checks;
  } finally {
    await connector.close();
    local.close();
  }
}
