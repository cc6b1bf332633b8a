/**
 * Whether this machine has an OS keychain the hub can use: the macOS Keychain through
 * `security`, or a Secret Service through `secret-tool` and a D-Bus session on Linux. A
 * headless Linux machine has no D-Bus session; there secrets fall back to `<home>/.env`
 * (mode 600), and the hub says so every time it does (spec: Security, Secrets stay out of reach).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The keychain service name every secret is stored under. */
export const KEYCHAIN_SERVICE = 'capabilities.sh';

export type KeychainStatus =
  | { available: true; backend: 'macOS Keychain' | 'Secret Service' }
  | { available: false; reason: string; fix: string };

export function keychainStatus(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): KeychainStatus {
  if (platform === 'darwin') {
    return onPath('security', env)
      ? { available: true, backend: 'macOS Keychain' }
      : {
          available: false,
          reason: 'the `security` command is missing',
          fix: 'reinstall the macOS command line tools',
        };
  }
  if (platform === 'linux') {
    if (!env.DBUS_SESSION_BUS_ADDRESS) {
      return {
        available: false,
        reason: 'no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset), so no Secret Service',
        fix: 'run inside a desktop session, or accept the mode-600 file',
      };
    }
    if (!onPath('secret-tool', env)) {
      return {
        available: false,
        reason: '`secret-tool` is not installed',
        fix: 'install it (Debian/Ubuntu: apt-get install libsecret-tools)',
      };
    }
    return { available: true, backend: 'Secret Service' };
  }
  return {
    available: false,
    reason: `no keychain support on ${platform} yet`,
    fix: 'accept the mode-600 file',
  };
}

/** The sentence the hub prints whenever it falls back to the file. */
export function fallbackNotice(
  status: Extract<KeychainStatus, { available: false }>,
  envFile: string,
): string {
  return `No OS keychain: ${status.reason}. Secrets are kept in ${envFile} (mode 600) instead.`;
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}
