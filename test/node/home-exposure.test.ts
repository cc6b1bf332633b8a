/** Which parts of a stdio source's command line reach the hub's home (issue: security, finding 2). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homeExposure, runsInside } from '../../local/home-exposure.ts';

const dir = mkdtempSync(join(tmpdir(), 'capabilities-exposure-'));
const home = join(dir, 'person', '.capabilities');
mkdirSync(join(home, 'hub'), { recursive: true });
/** The hub's own places in its home: its folder and the secrets file. */
const places = [join(home, 'hub'), join(home, '.env')];
mkdirSync(join(dir, 'person', 'code'), { recursive: true });
symlinkSync(join(dir, 'person'), join(dir, 'link'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FS = ['npx', '-y', '@modelcontextprotocol/server-filesystem'];

describe('homeExposure', () => {
  it('names a root that holds the home, the home itself, or a path inside it', () => {
    expect(homeExposure([...FS, '/'], {}, places)).toEqual(['/']);
    expect(homeExposure([...FS, join(dir, 'person')], {}, places)).toEqual([join(dir, 'person')]);
    expect(homeExposure([...FS, home], {}, places)).toEqual([home]);
    expect(homeExposure([...FS, join(home, 'hub')], {}, places)).toEqual([join(home, 'hub')]);
  });

  it('follows relative paths, ~, file:// URLs, --flag=path, settings and symbolic links', () => {
    expect(homeExposure([...FS, '.'], {}, places, join(dir, 'person'))).toEqual(['.']);
    expect(homeExposure([...FS, '..'], {}, places, join(dir, 'person', 'code'))).toEqual(['..']);
    expect(homeExposure([...FS, `file://${dir}`], {}, places)).toEqual([`file://${dir}`]);
    expect(homeExposure(['server', `--root=${dir}`], {}, places)).toEqual([`--root=${dir}`]);
    expect(homeExposure(['server'], { DATA_DIR: join(home, 'hub') }, places)).toEqual([
      `DATA_DIR=${join(home, 'hub')}`,
    ]);
    expect(homeExposure([...FS, join(dir, 'link')], {}, places)).toEqual([join(dir, 'link')]);
    expect(homeExposure([...FS, '~'], {}, [join(homedir(), '.capabilities', 'hub')])).toEqual(['~']);
    expect(homeExposure(['cat', join(home, '.env')], {}, places)).toEqual([join(home, '.env')]);
  });

  it('finds a path inside a bind mount, a list of roots, a shell line or a bare name', () => {
    const person = join(dir, 'person');
    const cases = [
      ['docker', 'run', '-v', `${person}:/data`, 'mcp/filesystem'],
      ['docker', 'run', '--mount', `type=bind,src=${person},dst=/projects`, 'mcp/filesystem'],
      ['server', '--roots', `/tmp,${person}`],
      ['sh', '-c', `server ${person}`],
    ];
    for (const command of cases) expect(homeExposure(command, {}, places)).toHaveLength(1);
    expect(homeExposure(['server'], { ALLOWED_DIRS: `/tmp:${person}` }, places)).toHaveLength(1);
    expect(homeExposure(['server', '.capabilities'], {}, places, person)).toEqual(['.capabilities']);
  });

  it("leaves alone paths beside the home, a source's own file in it, package names and flags", () => {
    expect(homeExposure([...FS, join(dir, 'person', 'code')], {}, places)).toEqual([]);
    expect(homeExposure(['server'], { MEMORY_FILE_PATH: join(home, 'memory.jsonl') }, places)).toEqual([]);
    expect(
      homeExposure(['npx', '-y', '@modelcontextprotocol/server-memory'], { MODE: 'fast' }, places),
    ).toEqual([]);
    expect(homeExposure([...FS, '.'], {}, places, join(dir, 'person', 'code'))).toEqual([]);
  });

  it('knows a folder to run in that lies inside the hub, and not one that holds it', () => {
    expect(runsInside(join(home, 'hub'), places)).toBe(true);
    expect(runsInside(join(home, 'hub', 'deeper'), places)).toBe(true);
    expect(runsInside(join(dir, 'person'), places)).toBe(false);
    expect(runsInside(join(dir, 'person', 'code'), places)).toBe(false);
  });
});
