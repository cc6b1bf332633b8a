/**
 * The store's skills (hub_skills, and each file's bytes in hub_skill_files; contracts/skills.ts):
 * one row per skill, by name, and one per file. Adding a name already held is a `conflict`;
 * adding or replacing one (a changed skill a person accepted) writes the record and its files in
 * one transaction, so a skill is stored whole or not at all. The files given must be exactly the
 * manifest's (same paths, same sizes); removing a skill removes its files.
 */
import { asc, eq } from 'drizzle-orm';
import { Skill, type SkillFileData } from '../contracts/skills.ts';
import { HubError } from '../errors.ts';
import { base64, fromBase64 } from '../hex.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';
import type { SyncDb } from './sync-db.ts';

type SkillRow = typeof t.hubSkills.$inferSelect;

const skillFromRow = (row: SkillRow): Skill => parseRecord(Skill, row, `skill ${row.name}`);

/** Refuses files that are not exactly the manifest's: a skill stored with other bytes than it lists. */
function checkContents(skill: Skill, contents: readonly SkillFileData[]): void {
  const sizes = new Map(skill.files.map((file) => [file.path, file.bytes]));
  const seen = new Set<string>();
  for (const file of contents) {
    if (sizes.get(file.path) !== file.data.byteLength || seen.has(file.path)) {
      throw new HubError(
        'invalid_input',
        `skill ${skill.name}: the file ${JSON.stringify(file.path)} is not in its manifest as given; store the files the manifest lists`,
      );
    }
    seen.add(file.path);
  }
  if (seen.size !== sizes.size) {
    throw new HubError(
      'invalid_input',
      `skill ${skill.name}: ${sizes.size - seen.size} of its files are missing; store every file the manifest lists`,
    );
  }
}

export class SkillRecords extends Records {
  addSkill(skill: Skill, contents: readonly SkillFileData[]): void {
    const record = checkInput(Skill, skill, 'skill');
    checkContents(record, contents);
    this.write((db) => {
      this.once(`a skill named ${record.name} already exists`, () =>
        db.insert(t.hubSkills).values(record).run(),
      );
      insertFiles(db, record.name, contents);
    });
  }

  replaceSkill(skill: Skill, contents: readonly SkillFileData[]): void {
    const record = checkInput(Skill, skill, 'skill');
    checkContents(record, contents);
    const { name, ...rest } = record;
    this.write((db) => {
      const changed = db.update(t.hubSkills).set(rest).where(eq(t.hubSkills.name, name)).returning().all();
      if (changed.length === 0) return;
      db.delete(t.hubSkillFiles).where(eq(t.hubSkillFiles.skill, name)).run();
      insertFiles(db, name, contents);
    });
  }

  getSkill(name: string): Skill | undefined {
    const row = this.db.select().from(t.hubSkills).where(eq(t.hubSkills.name, name)).get();
    return row && skillFromRow(row);
  }

  /** The files of a skill with their bytes, by path; undefined when there is no such skill. */
  getSkillContents(name: string): SkillFileData[] | undefined {
    if (!this.getSkill(name)) return undefined;
    return this.db
      .select()
      .from(t.hubSkillFiles)
      .where(eq(t.hubSkillFiles.skill, name))
      .orderBy(asc(t.hubSkillFiles.path))
      .all()
      .map((row) => ({ path: row.path, data: fromBase64(row.data) }));
  }

  listSkills(): Skill[] {
    return this.db.select().from(t.hubSkills).orderBy(asc(t.hubSkills.name)).all().map(skillFromRow);
  }

  removeSkill(name: string): boolean {
    return this.write((db) => {
      db.delete(t.hubSkillFiles).where(eq(t.hubSkillFiles.skill, name)).run();
      return db.delete(t.hubSkills).where(eq(t.hubSkills.name, name)).returning().all().length > 0;
    });
  }
}

function insertFiles(db: SyncDb, skill: string, contents: readonly SkillFileData[]): void {
  for (const file of contents) {
    db.insert(t.hubSkillFiles)
      .values({ skill, path: file.path, data: base64(file.data) })
      .run();
  }
}
