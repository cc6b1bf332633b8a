/**
 * The secret file (`<home>/.env`, the fallback where no keychain answers) written by several
 * processes at once, as when a token refresh in `hub serve` meets a `hub auth` in a terminal:
 * each write reads the file and replaces it whole, so without the lock one writer's secrets
 * would be lost. A lock left by a process that died is taken over.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process that sets `count` secrets of its own in `file`, one after another. */
function writer(file: string, name: string, count: number): Promise<number | null> {
  const code = `
    const { EnvFileSecretStore } = await import(${JSON.stringify(join(REPO, 'local', 'secret-store.ts'))});
    const store = new EnvFileSecretStore(${JSON.stringify(file)});
    for (let i = 0; i < ${count}; i++) await store.set('${name}_' + i, 'value-of-${name}-' + i);
  `;
  const child = spawn(NODE, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.once('close', resolve));
}

describe('the secret file, written by several processes', { timeout: 120_000 }, () => {
  it('keeps every secret each process wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-lock-'));
    dirs.push(dir);
    const file = join(dir, '.env');
    const names = ['A', 'B', 'C', 'D'];
    const codes = await Promise.all(names.map((name) => writer(file, name, 25)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const store = new EnvFileSecretStore(file);
    for (const name of names) {
      for (let i = 0; i < 25; i++) expect(await store.get(`${name}_${i}`)).toBe(`value-of-${name}-${i}`);
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-lock-'));
    dirs.push(dir);
    const file = join(dir, '.env');
    writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const store = new EnvFileSecretStore(file);
    await store.set('KEPT', 'a-value-long-enough');
    expect(await store.get('KEPT')).toBe('a-value-long-enough');
  });
});
