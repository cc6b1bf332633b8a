/**
 * The HubStore contract, part six: skills (engine/store/skill-records.ts). Called from
 * describeHubStore (hub-store.suite.ts), so it runs in both runtimes. A skill is stored whole by
 * name, a second one of that name is a conflict, a replacement keeps the name, a record that breaks
 * the contract is refused with nothing stored, and removing says whether there was one.
 */
import { expect } from 'vitest';
import type { Skill } from '../../engine/contracts/skills.ts';
import { digest, rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

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
    store.addSkill(skill('zeta'));
    store.addSkill(skill('alpha'));
    expect(store.getSkill('alpha')).toEqual(skill('alpha'));
    await rejectsWith('conflict', () => store.addSkill(skill('alpha', { source: '/elsewhere/alpha' })));
    expect(store.getSkill('alpha')?.source).toBe('/skills/alpha');
    store.replaceSkill(skill('alpha', { digest: digest('c'), updatedAt: T0 + 1 }));
    expect(store.getSkill('alpha')).toMatchObject({ digest: digest('c'), updatedAt: T0 + 1, addedAt: T0 });
    expect(store.listSkills().map((s) => s.name)).toEqual(['alpha', 'zeta']);
    expect(store.removeSkill('alpha')).toBe(true);
    expect(store.removeSkill('alpha')).toBe(false);
    expect(store.getSkill('alpha')).toBeUndefined();
  });

  check('a skill that breaks the contract is refused and nothing is stored', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addSkill(skill('Bad_Name')));
    await rejectsWith('invalid_input', () => store.addSkill(skill('empty', { files: [] })));
    await rejectsWith('invalid_input', () =>
      store.addSkill(skill('long', { description: 'x'.repeat(1025) })),
    );
    expect(store.listSkills()).toEqual([]);
  });
}
