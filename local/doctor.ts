/**
 * `hub doctor`'s checks: the home and its modes, hub.json, the store's schema, the token file
 * and the keychain. Each check says what it found and, when something is wrong, the exact
 * command that fixes it. Doctor only reads; it never repairs or migrates anything itself.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isHubError } from '../engine/errors.ts';
import { type HomePaths, readHubFile, readToken } from './home.ts';
import { fallbackNotice, keychainStatus } from './keychain.ts';
import { inspectStore } from './open-store.ts';
import { VERSION } from './package-files.ts';

export type CheckLevel = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  level: CheckLevel;
  detail: string;
  /** The command to run when the check is not ok. */
  fix?: string;
}

const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;

export function runDoctor(paths: HomePaths, env: NodeJS.ProcessEnv = process.env): Check[] {
  if (!existsSync(paths.hub)) {
    return [
      { name: 'home', level: 'fail', detail: `${paths.hub} does not exist`, fix: 'capabilities hub init' },
    ];
  }
  const checks: Check[] = [{ name: 'home', level: 'ok', detail: paths.hub }];
  checks.push(...modeChecks(paths));

  let hubId: string | undefined;
  try {
    const file = readHubFile(paths.hubFile);
    hubId = file.hubId;
    checks.push({
      name: 'hub.json',
      level: 'ok',
      detail: `hub ${file.hubId}, port ${file.settings.httpPort}`,
    });
  } catch (error) {
    checks.push({ name: 'hub.json', level: 'fail', detail: messageOf(error) });
  }

  if (!existsSync(paths.db)) {
    checks.push({
      name: 'store',
      level: 'fail',
      detail: `${paths.db} does not exist`,
      fix: 'capabilities hub init',
    });
  } else {
    try {
      const store = inspectStore(paths.db);
      const version = `schema version ${store.schemaVersion} (this capabilities ${VERSION} writes ${store.latestSchemaVersion})`;
      if (store.schemaVersion > store.latestSchemaVersion) {
        const by = store.writtenBy ?? 'a newer capabilities';
        checks.push({
          name: 'store',
          level: 'fail',
          detail: `${version}: brought to its schema by ${by}; it is never downgraded`,
          fix: `run ${by} or later`,
        });
      } else if (store.schemaVersion < store.latestSchemaVersion) {
        checks.push({
          name: 'store',
          level: 'warn',
          detail: `${version}: migrates on next start`,
          fix: 'capabilities hub init',
        });
      } else if (hubId && store.hubId && store.hubId !== hubId) {
        checks.push({
          name: 'store',
          level: 'fail',
          detail: `${paths.db} belongs to hub ${store.hubId}, not ${hubId}`,
        });
      } else {
        checks.push({ name: 'store', level: 'ok', detail: version });
      }
    } catch (error) {
      checks.push({ name: 'store', level: 'fail', detail: `${paths.db}: ${messageOf(error)}` });
    }
  }

  try {
    readToken(paths.token);
    checks.push({ name: 'token', level: 'ok', detail: `${paths.token} (for serve --http)` });
  } catch (error) {
    checks.push({ name: 'token', level: 'fail', detail: messageOf(error), fix: 'capabilities hub init' });
  }

  const keychain = keychainStatus(env);
  checks.push(
    keychain.available
      ? { name: 'keychain', level: 'ok', detail: `${keychain.backend}, service capabilities.sh` }
      : {
          name: 'keychain',
          level: 'warn',
          detail: fallbackNotice(keychain, paths.envFile),
          fix: keychain.fix,
        },
  );
  return checks;
}

/** Folders must be 700 and files 600: nobody but the owner may read a hub. */
function modeChecks(paths: HomePaths): Check[] {
  const targets: { path: string; dir: boolean }[] = [
    { path: paths.root, dir: true },
    { path: paths.hub, dir: true },
    ...readdirSync(paths.hub).map((name) => ({ path: join(paths.hub, name), dir: false })),
  ];
  if (existsSync(paths.envFile)) targets.push({ path: paths.envFile, dir: false });
  const open: Check[] = [];
  for (const target of targets) {
    const stat = statSync(target.path);
    const isDir = stat.isDirectory();
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      const want = isDir ? '700' : '600';
      open.push({
        name: 'permissions',
        level: 'fail',
        detail: `${target.path} is mode ${mode.toString(8)}: others can read it`,
        fix: `chmod ${want} ${quote(target.path)}`,
      });
    }
  }
  return open.length > 0 ? open : [{ name: 'permissions', level: 'ok', detail: 'folders 700, files 600' }];
}

function messageOf(error: unknown): string {
  return isHubError(error) || error instanceof Error ? error.message : String(error);
}

/** Healthy when no check failed; warnings (such as no keychain) do not fail doctor. */
export function isHealthy(checks: readonly Check[]): boolean {
  return checks.every((check) => check.level !== 'fail');
}
