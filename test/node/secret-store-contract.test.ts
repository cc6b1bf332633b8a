/** The SecretStore contract on the local hub's `.env` fallback (the store a headless machine uses). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { describeSecretStore } from '../conformance/secret-store.suite.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeSecretStore({
  name: 'local .env file',
  withStore: async (body) => {
    const dir = mkdtempSync(join(tmpdir(), 'capabilities-secrets-'));
    dirs.push(dir);
    await body(new EnvFileSecretStore(join(dir, '.env')));
  },
});
