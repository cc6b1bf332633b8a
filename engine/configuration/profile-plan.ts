/**
 * The profiles part of a push's plan (plan.ts): each pushed profile added, changed (with what
 * differs) or kept, and each of this hub's profiles the push does not carry removed. A profile is
 * compared by what it says (mode, namespaces, tools, skills), never by when it was made.
 */
import type { HubConfiguration, PlannedProfile } from '../contracts/configuration.ts';
import type { Profile } from '../contracts/profiles.ts';

/** What a profile says, without when: the parts a plan compares. */
const PARTS = ['mode', 'namespaces', 'tools', 'skills'] as const;

export function plannedProfiles(own: HubConfiguration, incoming: HubConfiguration): PlannedProfile[] {
  const mine = new Map(own.profiles.map((profile) => [profile.name, profile]));
  const pushed = new Set(incoming.profiles.map((profile) => profile.name));
  const planned: PlannedProfile[] = [];
  for (const profile of incoming.profiles) {
    const current = mine.get(profile.name);
    const differs = current ? PARTS.filter((part) => !same(current[part], profile[part])) : [];
    const change = !current ? 'add' : differs.length > 0 ? 'change' : 'keep';
    planned.push({
      ...shell(profile, change),
      ...(differs.length > 0 ? { differs: differs.join(', ') } : {}),
    });
  }
  for (const profile of own.profiles) if (!pushed.has(profile.name)) planned.push(shell(profile, 'remove'));
  return planned.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function shell(profile: Profile, change: PlannedProfile['change']): PlannedProfile {
  return { name: profile.name, change, mode: profile.mode, shows: showsWords(profile) };
}

/** `namespaces github, linear; tools github.get_issue; every skill` */
export function showsWords(profile: Profile): string {
  const list = (what: string, names: readonly string[] | undefined, all: string) =>
    names === undefined ? all : names.length === 0 ? `no ${what}` : `${what} ${names.join(', ')}`;
  return [
    list('namespaces', profile.namespaces, 'every namespace'),
    ...(profile.tools === undefined ? [] : [list('tools', profile.tools, '')]),
    list('skills', profile.skills, 'every skill'),
  ].join('; ');
}

/** Two lists the same as sets (absent only equals absent). */
function same(a: string | readonly string[] | undefined, b: string | readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined || typeof a === 'string' || typeof b === 'string') return a === b;
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((name) => set.has(name));
}
