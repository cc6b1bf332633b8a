/** The CLI end to end, as a person runs it: bin/capabilities in a subprocess on a temporary home. */
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from '../../local/package-files.ts';
import journal from '../../migrations/meta/_journal.json';
import { BIN, cli, REPO, tempHome } from './cli-process.ts';

/** The schema version this build writes: one per migration. */
const LATEST = journal.entries.length;

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = tempHome());
  home = join(home, 'caps');
});
afterEach(() => remove());

describe('capabilities', () => {
  it('prints help and its version', () => {
    const help = cli(home, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('hub');
    expect(help.stdout).toContain('--no-input');
    expect(help.stdout).toContain('--json');
    const version = cli(home, ['--version']);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(cli(home, ['hub', '--help']).stdout).toMatch(/init[\s\S]*doctor[\s\S]*serve/);
  });

  it('fails on an unknown command with usage and exit 2', () => {
    const result = cli(home, ['hub', 'frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('hub init creates the home with folders 700 and files 600, says what it made, and is idempotent', () => {
    const first = cli(home, ['hub', 'init']);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(join(home, 'hub', 'hub.json'));
    expect(first.stdout).toContain(join(home, 'hub', 'http-token'));
    expect(mode(home)).toBe('700');
    expect(mode(join(home, 'hub'))).toBe('700');
    for (const file of ['hub.json', 'hub.db', 'http-token'])
      expect(mode(join(home, 'hub', file))).toBe('600');
    const token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    const hubFile = JSON.parse(readFileSync(join(home, 'hub', 'hub.json'), 'utf8'));
    expect(hubFile).toMatchObject({
      hubId: expect.stringMatching(/^hub_/),
      schemaVersion: LATEST,
      settings: { httpPort: 4790 },
    });

    const again = cli(home, ['--json', 'hub', 'init']);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ hubId: hubFile.hubId, created: [] });
    expect(readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim()).toBe(token);
  });

  it('hub doctor is healthy on a fresh hub and names the keychain fallback', () => {
    cli(home, ['hub', 'init']);
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(0);
    expect(doctor.stdout).toContain(`schema version ${LATEST}`);
    expect(doctor.stdout).toContain('folders 700, files 600');
    expect(doctor.stdout).toContain(`No OS keychain: no D-Bus session`);
    expect(doctor.stdout).toContain(join(home, '.env'));
    const json = JSON.parse(cli(home, ['--json', 'hub', 'doctor']).stdout);
    expect(json.healthy).toBe(true);
    expect(json.checks.map((c: { name: string }) => c.name)).toEqual([
      'home',
      'permissions',
      'hub.json',
      'store',
      'token',
      'keychain',
    ]);
  });

  it('hub doctor fails on a home others can read and gives the exact chmod', () => {
    cli(home, ['hub', 'init']);
    chmodSync(join(home, 'hub'), 0o755);
    chmodSync(join(home, 'hub', 'http-token'), 0o644);
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain(`fix: chmod 700 '${join(home, 'hub')}'`);
    expect(doctor.stdout).toContain(`fix: chmod 600 '${join(home, 'hub', 'http-token')}'`);
    expect(doctor.stdout).toContain('Not healthy');
  });

  it('hub doctor before init says to run init', () => {
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('fix: capabilities hub init');
  });

  it('a corrupt hub.json is named, with what is wrong', () => {
    mkdirSync(join(home, 'hub'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'hub', 'hub.json'), '{"hubId": "hub_1", ', { mode: 0o600 });
    const init = cli(home, ['hub', 'init']);
    expect(init.status).toBe(1);
    expect(init.stderr).toContain(`${join(home, 'hub', 'hub.json')} is not valid JSON`);
    writeFileSync(join(home, 'hub', 'hub.json'), '{"hubId": 7, "schemaVersion": 1, "createdAt": 0}');
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('field "hubId"');
  });

  it('refuses a hub.db from a newer schema, naming both versions, and changes nothing', () => {
    cli(home, ['hub', 'init']);
    const db = new Database(join(home, 'hub', 'hub.db'));
    db.prepare(`INSERT INTO hub_migrations (idx, tag, applied_at) VALUES (?, 'from_the_future', 0)`).run(
      LATEST,
    );
    db.prepare(`UPDATE hub_meta SET value = 'capabilities 9.9.0' WHERE key = 'written_by'`).run();
    db.close();
    const files = ['hub.db', 'hub.json', 'http-token'].map((name) => join(home, 'hub', name));
    const before = files.map((file) => readFileSync(file));
    for (const command of [
      ['hub', 'init'],
      ['hub', 'list'],
      ['hub', 'serve', '--stdio'],
    ]) {
      const refused = cli(home, command);
      expect(refused.status, command.join(' ')).toBe(1);
      expect(refused.stderr).toContain(
        `was brought to schema version ${LATEST + 1} by capabilities 9.9.0; this is capabilities ${VERSION} that knows schema version ${LATEST}, so it changed nothing. Run capabilities 9.9.0 or later`,
      );
    }
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain(
      `schema version ${LATEST + 1} (this capabilities ${VERSION} writes ${LATEST}): brought to its schema by capabilities 9.9.0`,
    );
    expect(files.map((file) => readFileSync(file))).toEqual(before);
  });

  it('works from any directory and through a symlink', () => {
    const link = join(home, '..', 'capabilities-link');
    symlinkSync(BIN, link);
    const result = cli(home, ['--version'], { cwd: '/', bin: link });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs on the Node 24 from node_modules, whatever node is on PATH', () => {
    const result = cli(home, ['--json', 'hub', 'init']);
    expect(result.status).toBe(0);
    expect(readFileSync(BIN, 'utf8')).toContain('node_modules/node/bin/node');
  });
});
