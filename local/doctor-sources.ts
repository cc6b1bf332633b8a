/**
 * `hub doctor`'s source checks: each source is reached the way a call would reach it (its
 * default connection's secrets resolved, stdio servers started) and asked for its tool list,
 * with a short timeout. A failing source reports what happened and the tail of its stderr.
 */
import { Hub } from '../engine/hub.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import type { Check } from './doctor.ts';
import type { HomePaths } from './home.ts';
import { openLocalHub } from './local-hub.ts';
import { openSecretStore } from './secret-store.ts';
import { localConnector } from './sources/stdio-launcher.ts';

export async function sourceChecks(paths: HomePaths, version: string): Promise<Check[]> {
  const local = openLocalHub(paths, Date.now());
  const connector = localConnector({ version, connectTimeoutMs: 10_000, listTimeoutMs: 10_000 });
  const notices: string[] = [];
  const hub = new Hub({
    store: local.store,
    connector,
    secrets: openSecretStore(paths.envFile, (text) => notices.push(text)),
    clock: systemClock,
    random: cryptoRandom,
  });
  try {
    const checks: Check[] = [];
    for (const source of local.store.listSources()) {
      const name = `source ${source.namespace}`;
      try {
        const listed = await connector.listTools(source, await hub.credentials(source.namespace));
        const waiting = hub.pendingReview(source.namespace).length;
        checks.push({
          name,
          level: waiting > 0 ? 'warn' : 'ok',
          detail: `${listed.tools.length} tools${waiting > 0 ? `, ${waiting} wait for review` : ''}`,
          ...(waiting > 0 ? { fix: `capabilities hub review ${source.namespace}` } : {}),
        });
      } catch (error) {
        checks.push({ name, level: 'fail', detail: error instanceof Error ? error.message : String(error) });
      }
    }
    return checks;
  } finally {
    await connector.close();
    local.close();
  }
}
