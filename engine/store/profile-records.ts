/**
 * The store's profiles (hub_profiles; contracts/profiles.ts): one row per profile, by name. A
 * NULL list is "all", an absent field in the record. Adding a name already held is a `conflict`;
 * saving one (`putProfile`) replaces it whole in one statement. Whether the names a profile lists
 * exist is the engine's check (engine/profiles/), not the store's.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { Profile } from '../contracts/profiles.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

type ProfileRow = typeof t.hubProfiles.$inferSelect;

function profileFromRow(row: ProfileRow): Profile {
  const { namespaces, tools, skills, ...rest } = row;
  return parseRecord(
    Profile,
    {
      ...rest,
      ...(namespaces === null ? {} : { namespaces }),
      ...(tools === null ? {} : { tools }),
      ...(skills === null ? {} : { skills }),
    },
    `profile ${row.name}`,
  );
}

function rowOf(profile: Profile): ProfileRow {
  const record = checkInput(Profile, profile, 'profile');
  return {
    name: record.name,
    mode: record.mode,
    namespaces: record.namespaces ?? null,
    tools: record.tools ?? null,
    skills: record.skills ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export class ProfileRecords extends Records {
  addProfile(profile: Profile): void {
    const row = rowOf(profile);
    this.once(`a profile named ${row.name} already exists`, () =>
      this.db.insert(t.hubProfiles).values(row).run(),
    );
  }

  putProfile(profile: Profile): void {
    const { name, ...rest } = rowOf(profile);
    this.db
      .insert(t.hubProfiles)
      .values({ name, ...rest })
      .onConflictDoUpdate({ target: t.hubProfiles.name, set: rest })
      .run();
  }

  // Read by every search and run (the profile's view); `default` is often not stored at all.
  readonly #profile = this.prepare((db) =>
    db
      .select()
      .from(t.hubProfiles)
      .where(eq(t.hubProfiles.name, sql.placeholder('name')))
      .prepare(),
  );

  getProfile(name: string): Profile | undefined {
    const row = this.#profile().get({ name });
    return row && profileFromRow(row);
  }

  listProfiles(): Profile[] {
    return this.db.select().from(t.hubProfiles).orderBy(asc(t.hubProfiles.name)).all().map(profileFromRow);
  }

  removeProfile(name: string): boolean {
    return this.db.delete(t.hubProfiles).where(eq(t.hubProfiles.name, name)).returning().all().length > 0;
  }
}
