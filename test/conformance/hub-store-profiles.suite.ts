/**
 * The HubStore contract, part seven: profiles (engine/store/profile-records.ts). Called from
 * describeHubStore (hub-store.suite.ts), so it runs in both runtimes. A profile is stored whole by
 * name with its lists (absent is "all", `[]` is "none", and the two stay distinct), a second one of
 * that name is a conflict, `putProfile` replaces one whole, a record that breaks the contract is
 * refused with nothing stored, and removing says whether there was one.
 */
import { expect } from 'vitest';
import type { Profile } from '../../engine/contracts/profiles.ts';
import { rejectsWith, T0 } from './hub-store.fixtures.ts';
import type { StoreUnderTest } from './hub-store.suite.ts';

type Check = (title: string, body: (s: StoreUnderTest) => Promise<void> | void) => void;

const profile = (name: string, over: Partial<Profile> = {}): Profile => ({
  name,
  mode: 'code',
  createdAt: T0,
  updatedAt: T0,
  ...over,
});

export function describeProfileRecords(check: Check): void {
  check('a profile is stored whole by name, once; replaced; listed by name; removed', async ({ store }) => {
    const writer = profile('writer', {
      mode: 'direct',
      namespaces: ['github'],
      tools: ['github.create_issue'],
    });
    store.addProfile(writer);
    store.addProfile(profile('all'));
    store.addProfile(profile('none', { skills: [] }));
    expect(store.getProfile('writer')).toEqual(writer);
    expect(store.getProfile('all')).toEqual(profile('all'));
    expect(store.getProfile('none')).toEqual(profile('none', { skills: [] }));
    await rejectsWith('conflict', () => store.addProfile(profile('writer')));
    expect(store.getProfile('writer')?.mode).toBe('direct');
    store.putProfile(profile('writer', { skills: ['review'], updatedAt: T0 + 1 }));
    expect(store.getProfile('writer')).toEqual(profile('writer', { skills: ['review'], updatedAt: T0 + 1 }));
    store.putProfile(profile('default', { mode: 'direct' }));
    expect(store.listProfiles().map((p) => p.name)).toEqual(['all', 'default', 'none', 'writer']);
    expect(store.removeProfile('writer')).toBe(true);
    expect(store.removeProfile('writer')).toBe(false);
    expect(store.getProfile('writer')).toBeUndefined();
  });

  check('a profile that breaks the contract is refused and nothing is stored', async ({ store }) => {
    await rejectsWith('invalid_input', () => store.addProfile(profile('Bad Name')));
    await rejectsWith('invalid_input', () => store.addProfile(profile('odd', { tools: ['not an address'] })));
    await rejectsWith('invalid_input', () => store.putProfile(profile('odd', { namespaces: ['Upper'] })));
    expect(store.listProfiles()).toEqual([]);
  });
}
