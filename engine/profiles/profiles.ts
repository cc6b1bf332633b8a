/**
 * The hub's profiles, as a person administers them (create, edit, remove) and as every endpoint
 * reads them (`get`, `view`). `default` always exists: implicit (everything, code mode) until it
 * is edited, never removed. Before anything is stored, every name a profile lists is checked
 * against what the hub holds now, and an error names what exists and how to list it (in the
 * host's words): a typo never becomes a profile that silently shows nothing.
 *
 * Names a profile lists that disappear later (a source removed) simply match nothing; `visible`
 * reports them as missing.
 */
import { namespaceOf } from '../address.ts';
import { closest } from '../closest.ts';
import {
  DEFAULT_PROFILE,
  FULL_VIEW,
  IMPLICIT_DEFAULT,
  Profile,
  type ProfileMode,
  ProfileName,
} from '../contracts/profiles.ts';
import { HubError } from '../errors.ts';
import type { Clock, HubStore } from '../ports.ts';
import type { HostWording } from '../wording.ts';
import { ProfileView } from './profile-view.ts';

/** What a create or an edit sets. A list absent keeps it (an edit) or means all (a create); null means all. */
export interface ProfileChanges {
  mode?: ProfileMode | undefined;
  namespaces?: string[] | null | undefined;
  tools?: string[] | null | undefined;
  skills?: string[] | null | undefined;
}

/** What a profile shows now, and the names it lists that the hub no longer holds. */
export interface ProfileVisible {
  profile: Profile;
  tools: string[];
  skills: string[];
  missing: string[];
}

const quoted = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');
const SHOWN = 30;
const some = (names: readonly string[]) =>
  names.length === 0
    ? 'none yet'
    : names.length <= SHOWN
      ? names.join(', ')
      : `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more`;

export class Profiles {
  readonly #store: HubStore;
  readonly #clock: Clock;
  readonly #wording: HostWording;

  constructor(store: HubStore, clock: Clock, wording: HostWording) {
    this.#store = store;
    this.#clock = clock;
    this.#wording = wording;
  }

  /** The profile of that name (`default` as stored, else implicit); not_found otherwise. */
  get(name: string): Profile {
    const stored = this.#store.getProfile(name);
    if (stored) return stored;
    if (name === DEFAULT_PROFILE) return IMPLICIT_DEFAULT;
    const names = this.list().map((p) => p.name);
    const near = closest(name, names);
    throw new HubError(
      'not_found',
      `no profile ${JSON.stringify(name)}${near.length > 0 ? ` (did you mean ${quoted(near)}?)` : ''}; profiles: ${names.join(', ')}. ${this.#wording.listProfiles}`,
    );
  }

  /** What the profile of that name lets be seen (FULL_VIEW: everything). */
  view(name: string): ProfileView {
    return new ProfileView(name === FULL_VIEW ? { ...IMPLICIT_DEFAULT, name: FULL_VIEW } : this.get(name));
  }

  /** Every profile by name, `default` among them. */
  list(): Profile[] {
    const stored = this.#store.listProfiles();
    if (stored.some((p) => p.name === DEFAULT_PROFILE)) return stored;
    return [IMPLICIT_DEFAULT, ...stored].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A new profile (code mode unless said); a name that exists is a conflict, and nothing is stored on any error. */
  create(name: string, changes: ProfileChanges): Profile {
    const parsed = ProfileName.safeParse(name);
    if (!parsed.success) {
      throw new HubError(
        'invalid_input',
        `${JSON.stringify(name)} is not a profile name: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    if (name === DEFAULT_PROFILE || this.#store.getProfile(name)) {
      throw new HubError('conflict', `a profile named ${name} already exists; edit it, or pick another name`);
    }
    const now = this.#clock.now();
    const profile = this.#checked(apply({ name, mode: 'code', createdAt: now, updatedAt: now }, changes));
    this.#store.addProfile(profile);
    return profile;
  }

  /** Changes a profile (`default` included: its mode and curation); nothing is stored on any error. */
  edit(name: string, changes: ProfileChanges): Profile {
    const current = this.get(name);
    const now = this.#clock.now();
    const profile = this.#checked(
      apply(
        { ...current, createdAt: current.createdAt || now, updatedAt: Math.max(now, current.updatedAt + 1) },
        changes,
      ),
    );
    this.#store.putProfile(profile);
    return profile;
  }

  /** Removes a profile; `default` is refused (every hub has one). */
  remove(name: string): void {
    if (name === DEFAULT_PROFILE) {
      throw new HubError(
        'invalid_input',
        'the default profile cannot be removed: every hub has one. Edit it to change what it shows.',
      );
    }
    this.get(name);
    this.#store.removeProfile(name);
  }

  /** What the profile shows now: its visible tool addresses and skills, and names it lists that are gone. */
  visible(name: string): ProfileVisible {
    const profile = this.get(name);
    const view = new ProfileView(profile);
    const manifests = this.#store.listManifests();
    const tools = view.manifests(manifests).flatMap((m) => m.tools.map((t) => t.address));
    const skillNames = this.#store.listSkills().map((s) => s.name);
    const skills = skillNames.filter((s) => view.skill(s));
    const namespaces = new Set(this.#store.listSources().map((s) => s.namespace));
    const addresses = new Set(manifests.flatMap((m) => m.tools.map((t) => t.address)));
    const held = new Set(skillNames);
    const missing = [
      ...(profile.namespaces ?? []).filter((n) => !namespaces.has(n)),
      ...(profile.tools ?? []).filter((a) => !addresses.has(a)),
      ...(profile.skills ?? []).filter((s) => !held.has(s)).map((s) => `skill:${s}`),
    ];
    return { profile, tools, skills, missing };
  }

  /** The profile, refused unless every name it lists is held by the hub now. */
  #checked(draft: Profile): Profile {
    const parsed = Profile.safeParse(draft);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw new HubError('invalid_input', `this profile is not valid${at}: ${issue?.message ?? 'unknown'}`);
    }
    const profile = parsed.data;
    const namespaces = this.#store.listSources().map((s) => s.namespace);
    for (const namespace of profile.namespaces ?? []) {
      if (!namespaces.includes(namespace)) {
        throw new HubError(
          'not_found',
          `no namespace ${JSON.stringify(namespace)}${hint(namespace, namespaces)}; namespaces: ${some(namespaces)}. To see them, ${this.#wording.listSources}.`,
        );
      }
    }
    const manifests = this.#store.listManifests();
    for (const address of profile.tools ?? []) {
      const namespace = namespaceOf(address);
      const manifest = manifests.find((m) => m.namespace === namespace);
      if (!manifest) {
        throw new HubError(
          'not_found',
          `no tool ${JSON.stringify(address)}: no namespace ${JSON.stringify(namespace)} with tools${hint(namespace, namespaces)}; namespaces: ${some(namespaces)}. To see them, ${this.#wording.listSources}.`,
        );
      }
      const addresses = manifest.tools.map((t) => t.address);
      if (!addresses.includes(address)) {
        throw new HubError(
          'not_found',
          `no tool ${JSON.stringify(address)}${hint(address, addresses)}; ${namespace}'s tools: ${some(addresses)}.`,
        );
      }
      if (profile.namespaces && !profile.namespaces.includes(namespace)) {
        throw new HubError(
          'invalid_input',
          `${address} is in namespace ${namespace}, which this profile does not show; add ${namespace} to its namespaces, or list no namespaces.`,
        );
      }
    }
    const skills = this.#store.listSkills().map((s) => s.name);
    for (const skill of profile.skills ?? []) {
      if (!skills.includes(skill)) {
        throw new HubError(
          'not_found',
          `no skill ${JSON.stringify(skill)}${hint(skill, skills)}; skills: ${some(skills)}. ${this.#wording.listSkills}`,
        );
      }
    }
    return profile;
  }
}

/** The one nearest name, when there is one near enough (the whole list follows it). */
function hint(name: string, names: readonly string[]): string {
  const near = closest(name, names, 1);
  return near.length > 0 ? ` (did you mean ${quoted(near)}?)` : '';
}

/** The profile with the changes applied: a list set, kept (absent) or reset to all (null). */
function apply(profile: Profile, changes: ProfileChanges): Profile {
  const next: Profile = { ...profile, ...(changes.mode ? { mode: changes.mode } : {}) };
  for (const key of ['namespaces', 'tools', 'skills'] as const) {
    const value = changes[key];
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = [...new Set(value)].sort();
  }
  return next;
}
