/**
 * The store's skills (hub_skills; contracts/skills.ts): one row per skill, by name. Adding a
 * name already held is a `conflict`; replacing one (a changed skill a person accepted) is one
 * statement, so a skill is stored whole or not at all.
 */
import { asc, eq } from 'drizzle-orm';
import { Skill } from '../contracts/skills.ts';
import { DraftRecords } from './draft-records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

type SkillRow = typeof t.hubSkills.$inferSelect;

const skillFromRow = (row: SkillRow): Skill => parseRecord(Skill, row, `skill ${row.name}`);

export abstract class SkillRecords extends DraftRecords {
  addSkill(skill: Skill): void {
    const record = checkInput(Skill, skill, 'skill');
    this.once(`a skill named ${record.name} already exists`, () =>
      this.db.insert(t.hubSkills).values(record).run(),
    );
  }

  replaceSkill(skill: Skill): void {
    const record = checkInput(Skill, skill, 'skill');
    const { name, ...rest } = record;
    this.db.update(t.hubSkills).set(rest).where(eq(t.hubSkills.name, name)).run();
  }

  getSkill(name: string): Skill | undefined {
    const row = this.db.select().from(t.hubSkills).where(eq(t.hubSkills.name, name)).get();
    return row && skillFromRow(row);
  }

  listSkills(): Skill[] {
    return this.db.select().from(t.hubSkills).orderBy(asc(t.hubSkills.name)).all().map(skillFromRow);
  }

  removeSkill(name: string): boolean {
    return this.db.delete(t.hubSkills).where(eq(t.hubSkills.name, name)).returning().all().length > 0;
  }
}
