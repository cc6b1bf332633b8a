/**
 * `capabilities hub skills add | list | remove` as a person runs them: bin/capabilities in a
 * subprocess on a temporary hub, over real skill folders in a temporary directory. A folder that is
 * not a skill (no front matter, a bad name, a link out of it, too large) is refused with what to
 * do and leaves nothing behind; a name another folder holds is refused; a changed skill is shown
 * and replaces the stored one only when accepted.
 */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, hubHome } from './cli-process.ts';
import { type SkillFolders, skillFolders, skillMd } from './skill-folders.ts';

let home: string;
let removeHome: () => void;
let folders: SkillFolders;
beforeEach(() => {
  ({ home, remove: removeHome } = hubHome());
  folders = skillFolders();
});
afterEach(() => {
  removeHome();
  folders.remove();
});

const listed = () => {
  const list = cli(home, ['--json', 'hub', 'skills', 'list']);
  expect(list.status, list.stderr).toBe(0);
  return (JSON.parse(list.stdout) as { skills: { name: string; files: number; digest: string }[] }).skills;
};

describe('hub skills', { timeout: 120_000 }, () => {
  it('adds a skill folder, lists it with its files, and removes it', () => {
    const folder = folders.write('pdf-forms', {
      'SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms from a JSON description of the fields.'),
      'scripts/fill.py': 'print("never run by the hub")\n',
      'reference.md': '# Field types\n',
    });
    const added = cli(home, ['--json', 'hub', 'skills', 'add', folder]);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: true, name: 'pdf-forms', files: 3 });

    expect(listed()).toMatchObject([{ name: 'pdf-forms', files: 3 }]);
    const text = cli(home, ['hub', 'skills', 'list']);
    expect(text.stdout).toContain('pdf-forms  3 files');
    expect(text.stdout).toContain('Fill in PDF forms');

    const again = cli(home, ['hub', 'skills', 'add', folder]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('already in the hub, unchanged');

    const removed = cli(home, ['hub', 'skills', 'remove', 'pdf-forms']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(listed()).toEqual([]);
    const missing = cli(home, ['hub', 'skills', 'remove', 'pdf-forms']);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('no skill named "pdf-forms"');
  });

  it('refuses a SKILL.md without front matter, saying what it needs, and stores nothing', () => {
    const folder = folders.write('plain', { 'SKILL.md': '# Just instructions\n' });
    const added = cli(home, ['hub', 'skills', 'add', folder]);
    expect(added.status).not.toBe(0);
    expect(added.stderr).toContain('has no front matter');
    expect(added.stderr).toContain('description:');
    expect(listed()).toEqual([]);
  });

  it('refuses the same folder under a new name while the old one is in the hub', () => {
    const folder = folders.write('notes', { 'SKILL.md': skillMd('notes', 'Take notes.') });
    expect(cli(home, ['hub', 'skills', 'add', folder]).status).toBe(0);
    writeFileSync(join(folder, 'SKILL.md'), skillMd('jotter', 'Take notes.'));
    const renamed = cli(home, ['hub', 'skills', 'add', '--yes', folder]);
    expect(renamed.status).not.toBe(0);
    expect(renamed.stderr).toContain(
      'is the skill notes in the hub, and its SKILL.md now names it jotter; remove notes from the hub first',
    );
    expect(listed().map((skill) => skill.name)).toEqual(['notes']);
  });

  it('refuses a folder with no SKILL.md, and a description missing', () => {
    const none = folders.write('none', { 'README.md': 'hi\n' });
    expect(cli(home, ['hub', 'skills', 'add', none]).stderr).toContain('has no SKILL.md at its top');
    const bare = folders.write('bare', { 'SKILL.md': '---\nname: bare\n---\nbody\n' });
    expect(cli(home, ['hub', 'skills', 'add', bare]).stderr).toContain('needs "description:');
    expect(listed()).toEqual([]);
  });

  it.each([
    ['PDF_Forms', 'uppercase and underscore'],
    ['-leading', 'a leading hyphen'],
    ['double--hyphen', 'a double hyphen'],
    ['a'.repeat(65), 'more than 64 characters'],
  ])('refuses the name %j (%s)', (name) => {
    const folder = folders.write('bad', { 'SKILL.md': skillMd(name, 'Something useful.') });
    const added = cli(home, ['hub', 'skills', 'add', folder]);
    expect(added.status).not.toBe(0);
    expect(added.stderr).toContain('lowercase letters, digits and single hyphens, at most 64');
    expect(listed()).toEqual([]);
  });

  it('refuses a name another folder holds, saying how to go on', () => {
    const first = folders.write('one/notes', { 'SKILL.md': skillMd('notes', 'Take notes.') });
    const second = folders.write('two/notes', { 'SKILL.md': skillMd('notes', 'Other notes.') });
    expect(cli(home, ['hub', 'skills', 'add', first]).status).toBe(0);
    const clash = cli(home, ['hub', 'skills', 'add', second]);
    expect(clash.status).not.toBe(0);
    expect(clash.stderr).toContain(`a skill named "notes" is already in the hub, added from ${first}`);
    expect(clash.stderr).toContain('capabilities hub skills remove notes');
    expect(listed()).toMatchObject([{ name: 'notes' }]);
  });

  it('refuses a link that leads out of the folder, naming it, and stores nothing', () => {
    const outside = folders.write('secrets', { 'key.txt': 'not for the skill\n' });
    const folder = folders.write('linked', { 'SKILL.md': skillMd('linked', 'Has a link.') });
    symlinkSync(join(outside, 'key.txt'), join(folder, 'key.txt'));
    const added = cli(home, ['hub', 'skills', 'add', folder]);
    expect(added.status).not.toBe(0);
    expect(added.stderr).toContain('key.txt is a link that leads out of the skill folder');
    expect(listed()).toEqual([]);

    // A link to a file inside the folder is read as that file.
    const inside = folders.write('inside', { 'SKILL.md': skillMd('inside', 'Links inside.'), 'a.md': 'A\n' });
    symlinkSync(join(inside, 'a.md'), join(inside, 'b.md'));
    const ok = cli(home, ['--json', 'hub', 'skills', 'add', inside]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ added: true, files: 3 });
  });

  it('refuses a folder over the size cap, and one with too many files', () => {
    const large = folders.write('large', {
      'SKILL.md': skillMd('large', 'Too big.'),
      'data.bin': Buffer.alloc(1024 * 1024 + 1),
    });
    const big = cli(home, ['hub', 'skills', 'add', large]);
    expect(big.status).not.toBe(0);
    expect(big.stderr).toContain('larger than a skill may be');
    const many: Record<string, string> = { 'SKILL.md': skillMd('many', 'Many files.') };
    for (let i = 0; i < 256; i++) many[`f/${i}.txt`] = 'x';
    const crowded = cli(home, ['hub', 'skills', 'add', folders.write('many', many)]);
    expect(crowded.status).not.toBe(0);
    expect(crowded.stderr).toContain('at most 256 files');
    expect(listed()).toEqual([]);
  });

  it('shows a changed skill as a change and replaces it only when accepted', () => {
    const folder = folders.write('deploy', {
      'SKILL.md': skillMd('deploy', 'Deploy the app.'),
      'steps.md': 'one\n',
      'old.md': 'old\n',
    });
    expect(cli(home, ['hub', 'skills', 'add', folder]).status).toBe(0);
    const [before] = listed();
    writeFileSync(join(folder, 'steps.md'), 'two\n');
    writeFileSync(join(folder, 'new.md'), 'new\n');
    writeFileSync(join(folder, 'SKILL.md'), skillMd('deploy', 'Deploy the app to staging.'));
    rmSync(join(folder, 'old.md'));

    const asked = cli(home, ['--no-input', 'hub', 'skills', 'add', folder]);
    expect(asked.status).not.toBe(0);
    expect(asked.stderr).toContain('Skill "deploy" changed since it was added');
    expect(asked.stderr).toContain('+ new.md');
    expect(asked.stderr).toContain('- old.md');
    expect(asked.stderr).toContain('~ steps.md');
    // What agents read is shown, line by line.
    expect(asked.stderr).toContain('SKILL.md, what agents read:');
    expect(asked.stderr).toContain('    - description: Deploy the app.');
    expect(asked.stderr).toContain('    + description: Deploy the app to staging.');
    expect(asked.stderr).toContain('pass --yes to accept');
    expect(listed()[0]?.digest).toBe(before?.digest);

    const accepted = cli(home, ['--json', 'hub', 'skills', 'add', '--yes', folder]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ changed: true, accepted: true });
    const [after] = listed();
    expect(after?.digest).not.toBe(before?.digest);
    expect(after).toMatchObject({ description: 'Deploy the app to staging.' });
  });

  it('refuses a git URL not pinned to a commit, before fetching anything (skills-git.test.ts fetches)', () => {
    const added = cli(home, ['hub', 'skills', 'add', 'https://github.com/anthropics/skills']);
    expect(added.status).not.toBe(0);
    expect(added.stderr).toContain('pin the skill to a full commit');
    expect(listed()).toEqual([]);
  });
});
