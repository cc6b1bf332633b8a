/**
 * HubSecrets (engine/secrets/hub-secrets.ts): one scrubber for every secret the hub holds, kept
 * current across processes, never missing a value it could not read once, never forgetting one
 * that was replaced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubSecrets, RETRY_READ_MS } from '../../engine/secrets/hub-secrets.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';

let dir: string;
let local: LocalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capabilities-hub-secrets-'));
  local = openLocalStore(join(dir, 'hub.db'), 0);
  local.store.addSource({
    kind: 'mcp-http',
    namespace: 'github',
    url: 'https://github.example/mcp',
    allowedHosts: ['github.example'],
    addedAt: 0,
    updatedAt: 0,
  });
});
afterEach(() => {
  local.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A secret store whose reads can be made to fail, counting them. */
function secretStore(values: Map<string, string>) {
  const state = { failing: false, reads: 0 };
  const store: SecretStore = {
    where: 'a test store',
    async get(key) {
      state.reads++;
      if (state.failing) throw new Error('the keychain is locked');
      return values.get(key);
    },
    async set(key, value) {
      values.set(key, value);
    },
    async delete(key) {
      values.delete(key);
    },
  };
  return { store, state };
}

const connect = (name: string, setAt: number) =>
  local.store.putConnection({
    namespace: 'github',
    name,
    isDefault: name === 'work',
    secrets: [{ key: `GITHUB__${name.toUpperCase()}`, delivery: { kind: 'env', variable: 'TOKEN' }, setAt }],
    createdAt: 0,
  });

describe('HubSecrets', () => {
  it('scrubs every connection of every source and the host’s own, reading each value once', async () => {
    const values = new Map([
      ['GITHUB__WORK', 'ghp_work_0123456789abcdef'],
      ['GITHUB__HOME', 'ghp_home_0123456789abcdef'],
    ]);
    const { store, state } = secretStore(values);
    const now = { t: 0 };
    const secrets = new HubSecrets({
      store: local.store,
      secrets: store,
      own: () => ['http-token-0123456789abcdef'],
      clock: { now: () => now.t },
    });
    connect('work', 1);
    connect('home', 1);
    await secrets.refresh();
    await secrets.refresh();
    expect(state.reads).toBe(2);
    const text = 'ghp_work_0123456789abcdef ghp_home_0123456789abcdef http-token-0123456789abcdef';
    expect(secrets.scrubber.text(text)).toBe(`${SCRUBBED} ${SCRUBBED} ${SCRUBBED}`);
  });

  it('a value entered again is read again, and the one it replaced is still scrubbed', async () => {
    const values = new Map([['GITHUB__WORK', 'ghp_old_0123456789abcdef']]);
    const { store } = secretStore(values);
    const secrets = new HubSecrets({ store: local.store, secrets: store, clock: { now: () => 0 } });
    connect('work', 1);
    await secrets.refresh();
    // Another process runs `hub auth github --connection work`: a new value, a new setAt.
    values.set('GITHUB__WORK', 'ghp_new_0123456789abcdef');
    connect('work', 2);
    await secrets.refresh();
    expect(secrets.scrubber.text('ghp_new_0123456789abcdef ghp_old_0123456789abcdef')).toBe(
      `${SCRUBBED} ${SCRUBBED}`,
    );
  });

  it('a value it could not read is tried again after a pause, not forgotten', async () => {
    const values = new Map([['GITHUB__WORK', 'ghp_locked_0123456789abcdef']]);
    const { store, state } = secretStore(values);
    const now = { t: 1_000 };
    const secrets = new HubSecrets({ store: local.store, secrets: store, clock: { now: () => now.t } });
    connect('work', 1);
    state.failing = true;
    await secrets.refresh();
    expect(secrets.scrubber.text('ghp_locked_0123456789abcdef')).toBe('ghp_locked_0123456789abcdef');
    state.failing = false;
    await secrets.refresh();
    expect(state.reads).toBe(1);
    now.t += RETRY_READ_MS;
    await secrets.refresh();
    expect(secrets.scrubber.text('ghp_locked_0123456789abcdef')).toBe(SCRUBBED);
  });

  it('an HTTP Basic credential is scrubbed as sent, as user:password and as the bare password, replaced or not', async () => {
    const basic = (user: string, password: string) => btoa(`${user}:${password}`);
    const values = new Map([['API__WORK', basic('octo', 'pw-0123456789abcdef')]]);
    const { store } = secretStore(values);
    const secrets = new HubSecrets({ store: local.store, secrets: store, clock: { now: () => 0 } });
    const putBasic = (setAt: number) =>
      local.store.putConnection({
        namespace: 'github',
        name: 'work',
        isDefault: true,
        secrets: [
          { key: 'API__WORK', delivery: { kind: 'header', name: 'Authorization', scheme: 'Basic' }, setAt },
        ],
        createdAt: 0,
      });
    putBasic(1);
    await secrets.refresh();
    const echoed = `Basic ${basic('octo', 'pw-0123456789abcdef')} | octo:pw-0123456789abcdef | wrong password "pw-0123456789abcdef" for octo`;
    expect(secrets.scrubber.text(echoed)).toBe(
      `Basic ${SCRUBBED} | ${SCRUBBED} | wrong password "${SCRUBBED}" for octo`,
    );
    values.set('API__WORK', basic('octo', 'pw-new-0123456789abcdef'));
    putBasic(2);
    await secrets.refresh();
    expect(secrets.scrubber.text('pw-0123456789abcdef pw-new-0123456789abcdef')).toBe(
      `${SCRUBBED} ${SCRUBBED}`,
    );
  });
});
