/**
 * The HubStore contract, part six: skills (engine/store/skill-records.ts). Called from
 * describeHubStore (hub-store.suite.ts), so it runs in both runtimes. A skill is stored whole by
 * name with its files' bytes, a second one of that name is a conflict, a replacement keeps the
 * name and replaces the files, a record that breaks the contract (or files other than its
 * manifest's) is refused with nothing stored, and removing says whether there was one and takes
 * its files with it.
 */
import { expect } from 'vitest';
import type { Skill } from '../../engine/contracts/skills.ts';
import { digest, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

/** The one file the fixture's manifest lists: SKILL.md, 60 bytes. */
const CONTENTS = [{ path: 'SKILL.md', data: new Uint8Array(60).fill(0x61) }];

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const skill = (name: string, over: Partial<Skill> = {}): Skill => ({
  name,
  description: `The ${name} skill.`,
  text: `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo it.\n`,
  files: [{ path: 'SKILL.md', bytes: 60, sha256: digest('a') }],
  source: `/skills/${name}`,
  digest: digest('b'),
  addedAt: T0,
  updatedAt: T0,
  ...over,
});

export function describeSkillRecords(check: Check): void {
  check('a skill is stored whole by name, once; replaced; listed by name; removed', async ({ store }) => {
    store.addSkill(skill('zeta'), CONTENTS);
    store.addSkill(skill('alpha'), CONTENTS);
    expect(store.getSkill('alpha')).toEqual(skill('alpha'));
    await rejectsWith('conflict', () =>
      store.addSkill(skill('alpha', { source: '/elsewhere/alpha' }), CONTENTS),
    );
    expect(store.getSkill('alpha')?.source).toBe('/skills/alpha');
    store.replaceSkill(skill('alpha', { digest: digest('c'), updatedAt: T0 + 1 }), CONTENTS);
    expect(store.getSkill('alpha')).toMatchObject({ digest: digest('c'), updatedAt: T0 + 1, addedAt: T0 });
    expect(store.listSkills().map((s) => s.name)).toEqual(['alpha', 'zeta']);
    expect(store.removeSkill('alpha')).toBe(true);
    expect(store.removeSkill('alpha')).toBe(false);
    expect(store.getSkill('alpha')).toBeUndefined();
  });

  check('a skill that breaks the contract is refused and nothing is stored', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addSkill(skill('Bad_Name'), CONTENTS));
    await rejectsWith('invalid_input', () => store.addSkill(skill('empty', { files: [] }), []));
    await rejectsWith('invalid_input', () =>
      store.addSkill(skill('long', { description: 'x'.repeat(1025) }), CONTENTS),
    );
    expect(store.listSkills()).toEqual([]);
  });

  check('a skill keeps its files byte for byte, replaced with it and removed with it', async ({ store }) => {
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    const files = [
      { path: 'SKILL.md', bytes: 60, sha256: digest('a') },
      { path: 'bin/data.bin', bytes: 256, sha256: digest('d') },
    ];
    const contents = [...CONTENTS, { path: 'bin/data.bin', data: every }];
    store.addSkill(skill('bytes', { files }), contents);
    expect(store.getSkillContents('bytes')).toEqual([
      { path: 'SKILL.md', data: CONTENTS[0]?.data },
      { path: 'bin/data.bin', data: every },
    ]);
    store.replaceSkill(skill('bytes', { digest: digest('e') }), CONTENTS);
    expect(store.getSkillContents('bytes')?.map((file) => file.path)).toEqual(['SKILL.md']);
    expect(store.removeSkill('bytes')).toBe(true);
    expect(store.getSkillContents('bytes')).toBeUndefined();
    // A skill of the same name added again starts with only its own files.
    store.addSkill(skill('bytes'), CONTENTS);
    expect(store.getSkillContents('bytes')?.map((file) => file.path)).toEqual(['SKILL.md']);
  });

  check('files other than the manifest lists are refused and nothing is stored', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addSkill(skill('missing'), []));
    await rejectsWith('invalid_input', () =>
      store.addSkill(skill('other'), [{ path: 'other.md', data: new Uint8Array(60) }]),
    );
    await rejectsWith('invalid_input', () =>
      store.addSkill(skill('short'), [{ path: 'SKILL.md', data: new Uint8Array(59) }]),
    );
    await rejectsWith('invalid_input', () => store.addSkill(skill('twice'), [...CONTENTS, ...CONTENTS]));
    expect(store.listSkills()).toEqual([]);
    store.addSkill(skill('kept'), CONTENTS);
    await rejectsWith('invalid_input', () => store.replaceSkill(skill('kept', { digest: digest('f') }), []));
    expect(store.getSkill('kept')?.digest).toBe(digest('b'));
    expect(store.getSkillContents('kept')).toHaveLength(1);
  });
}
