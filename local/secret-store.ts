/**
 * The local SecretStore: the OS keychain under the service `capabilities.sh` (macOS `security`,
 * Linux Secret Service through `secret-tool`), and where there is none, `<home>/.env` (mode 600)
 * — with a notice every time the fallback is used. Values go to the keychain tools on stdin,
 * never as arguments, so they never show in a process list.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { HubError } from '../engine/errors.ts';
import type { SecretStore } from '../engine/secrets/secret-store.ts';
import { writeFileAtomic } from './home.ts';
import { fallbackNotice, KEYCHAIN_SERVICE, keychainStatus } from './keychain.ts';

/** Opens the keychain, or the file fallback after calling `notice` with the sentence that says so. */
export function openSecretStore(
  envFile: string,
  notice: (text: string) => void,
  env = process.env,
): SecretStore {
  const status = keychainStatus(env);
  if (status.available) {
    return status.backend === 'macOS Keychain' ? macKeychain() : secretService();
  }
  notice(fallbackNotice(status, envFile));
  return new EnvFileSecretStore(envFile);
}

/** A lock this old was left by a process that died mid-write (a write takes milliseconds). */
const STALE_LOCK_MS = 15_000;
/**
 * How long a writer waits for another process's lock on the secret file, and how often it looks:
 * longer than a lock can go stale, so a lock left by a dead process is always taken over and a
 * write (a refreshed grant whose refresh token was rotated) is never given up for it.
 */
const LOCK_WAIT_MS = 20_000;
const LOCK_POLL_MS = 10;

/** `<home>/.env`: KEY="json-escaped value" lines, written atomically with mode 600, one writer at a time. */
export class EnvFileSecretStore implements SecretStore {
  readonly where: string;
  readonly #path: string;

  constructor(path: string) {
    this.#path = path;
    this.where = path;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#read().get(key);
  }

  async set(key: string, value: string): Promise<void> {
    await this.#locked(() => {
      const entries = this.#read();
      entries.set(key, value);
      this.#write(entries);
    });
  }

  async delete(key: string): Promise<void> {
    await this.#locked(() => {
      const entries = this.#read();
      if (entries.delete(key)) this.#write(entries);
    });
  }

  /**
   * `change` (a read, then a write of the whole file) while holding `<file>.lock`: several
   * processes serve one hub (a token refresh in one, `hub auth` in another), and without it one
   * writer's file would replace the other's, losing a secret. Readers need no lock: the file is
   * replaced whole, by a rename. A lock older than STALE_LOCK_MS was left by a process that died.
   */
  async #locked(change: () => void): Promise<void> {
    const lock = `${this.#path}.lock`;
    for (let waited = 0; ; waited += LOCK_POLL_MS) {
      try {
        closeSync(openSync(lock, 'wx', 0o600));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) {
        // Moved aside, not deleted: a rename happens once, so of the writers that saw it stale
        // only one takes it over, and none deletes a fresh lock another has just made.
        const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
        try {
          renameSync(lock, aside);
          rmSync(aside, { force: true });
        } catch {
          // Another writer moved it first.
        }
        continue;
      }
      if (waited >= LOCK_WAIT_MS) {
        throw new HubError(
          'unavailable',
          `another process has been writing the secret file ${this.#path} for over ${LOCK_WAIT_MS / 1000} s; try again, and if it goes on, delete ${lock}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    try {
      change();
    } finally {
      rmSync(lock, { force: true });
    }
  }

  #read(): Map<string, string> {
    const entries = new Map<string, string>();
    if (!existsSync(this.#path)) return entries;
    for (const line of readFileSync(this.#path, 'utf8').split('\n')) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
      if (!match?.[1] || match[2] === undefined) continue;
      const raw = match[2];
      entries.set(match[1], raw.startsWith('"') ? (JSON.parse(raw) as string) : raw);
    }
    return entries;
  }

  #write(entries: Map<string, string>): void {
    const text = [...entries].map(([key, value]) => `${key}=${JSON.stringify(value)}`).join('\n');
    writeFileAtomic(this.#path, `# capabilities secrets (mode 600). Prefer an OS keychain.\n${text}\n`);
  }
}

/**
 * How long a keychain tool may take (a locked keychain may wait for the person to unlock it);
 * past this it is stopped and the value counts as not there, so nothing in the hub hangs on it.
 */
const KEYCHAIN_TIMEOUT_MS = 30_000;

function run(
  command: string,
  args: readonly string[],
  input?: string,
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], timeout: KEYCHAIN_TIMEOUT_MS });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    child.stdin.end(input ?? '');
  });
}

function secretService(): SecretStore {
  const attrs = (key: string) => ['service', KEYCHAIN_SERVICE, 'account', key];
  return {
    where: 'the Secret Service keychain',
    async get(key) {
      const { code, stdout } = await run('secret-tool', ['lookup', ...attrs(key)]);
      return code === 0 ? stdout : undefined;
    },
    async set(key, value) {
      const { code } = await run(
        'secret-tool',
        ['store', `--label=${KEYCHAIN_SERVICE} ${key}`, ...attrs(key)],
        value,
      );
      if (code !== 0) throw new Error(`secret-tool could not store ${key} (exit ${code})`);
    },
    async delete(key) {
      await run('secret-tool', ['clear', ...attrs(key)]);
    },
  };
}

function macKeychain(): SecretStore {
  // `security -i` reads commands from stdin, so the value is never an argument of a process.
  const quote = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return {
    where: 'the macOS Keychain',
    async get(key) {
      const { code, stdout } = await run('security', [
        'find-generic-password',
        '-s',
        KEYCHAIN_SERVICE,
        '-a',
        key,
        '-w',
      ]);
      return code === 0 ? stdout.replace(/\n$/, '') : undefined;
    },
    async set(key, value) {
      const command = `add-generic-password -U -s ${quote(KEYCHAIN_SERVICE)} -a ${quote(key)} -w ${quote(value)}\n`;
      const { code } = await run('security', ['-i'], command);
      if (code !== 0) throw new Error(`the macOS Keychain refused to store ${key} (exit ${code})`);
    },
    async delete(key) {
      await run('security', ['delete-generic-password', '-s', KEYCHAIN_SERVICE, '-a', key]);
    },
  };
}
