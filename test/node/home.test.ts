/** The home's file rules: CAPABILITIES_HOME, atomic 600 writes, exclusive creation, strict hub.json and token reads. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HubError } from '../../engine/errors.ts';
import { homePaths, readHubFile, readToken, writeFileAtomic } from '../../local/home.ts';
import { tempHome } from './cli-process.ts';

let dir: string;
let remove: () => void;
beforeEach(() => {
  ({ home: dir, remove } = tempHome());
});
afterEach(() => remove());

const codeOf = (body: () => unknown) => {
  try {
    body();
  } catch (error) {
    return error instanceof HubError ? `${error.code}: ${error.message}` : String(error);
  }
  return 'no error';
};

describe('the home', () => {
  it('lives in ~/.capabilities unless CAPABILITIES_HOME says otherwise', () => {
    expect(homePaths({}).hub).toBe(join(homedir(), '.capabilities', 'hub'));
    expect(homePaths({ CAPABILITIES_HOME: '/srv/hub-a' })).toMatchObject({
      hub: '/srv/hub-a/hub',
      hubFile: '/srv/hub-a/hub/hub.json',
      db: '/srv/hub-a/hub/hub.db',
      token: '/srv/hub-a/hub/http-token',
      envFile: '/srv/hub-a/.env',
    });
  });

  it('writes files atomically with mode 600 and leaves no temporary file', () => {
    const path = join(dir, 'x.json');
    expect(writeFileAtomic(path, 'one')).toBe(true);
    expect(writeFileAtomic(path, 'two')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('an exclusive write never replaces a file another process created', () => {
    const path = join(dir, 'hub.json');
    expect(writeFileAtomic(path, 'first', { exclusive: true })).toBe(true);
    expect(writeFileAtomic(path, 'second', { exclusive: true })).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('first');
    expect(readdirSync(dir)).toEqual(['hub.json']);
  });

  it('names hub.json and what is wrong with it', () => {
    const path = join(dir, 'hub.json');
    expect(codeOf(() => readHubFile(path))).toContain(`not_found: ${path} does not exist`);
    writeFileSync(path, 'not json');
    expect(codeOf(() => readHubFile(path))).toMatch(new RegExp(`^corrupt: ${path} is not valid JSON`));
    writeFileSync(path, JSON.stringify({ hubId: 'hub_1', schemaVersion: -1, createdAt: 0 }));
    expect(codeOf(() => readHubFile(path))).toContain('field "schemaVersion"');
    writeFileSync(
      path,
      JSON.stringify({ hubId: 'hub_1', schemaVersion: 2, createdAt: 0, settings: { httpPort: 0 } }),
    );
    expect(codeOf(() => readHubFile(path))).toContain('field "settings.httpPort"');
    writeFileSync(path, JSON.stringify({ hubId: 'hub_1', schemaVersion: 2, createdAt: 0 }));
    expect(readHubFile(path).settings.httpPort).toBe(4790);
  });

  it('refuses a token shorter than 32 characters', () => {
    const path = join(dir, 'http-token');
    writeFileSync(path, 'short\n');
    expect(codeOf(() => readToken(path))).toContain('shorter than 32 characters');
    writeFileSync(path, `${'t'.repeat(43)}\n`);
    expect(readToken(path)).toBe('t'.repeat(43));
  });
});
