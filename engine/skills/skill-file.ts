/**
 * Reading a SKILL.md (Agent Skills format): a YAML front matter block between `---` lines with a
 * `name` and a `description`, then the instructions in Markdown. Other front matter keys
 * (`license`, `allowed-tools`, `metadata`…) are kept in the text and otherwise ignored.
 *
 * Invariants: a name follows Agent Skills' rule (lowercase letters, digits and single hyphens, at
 * most 64); a description is 1 to 1024 characters; the front matter is parsed as data (no
 * aliases); anything else is a HubError('invalid_input') that says what to change.
 */
import { parse } from 'yaml';
import { SKILL_DESCRIPTION_MAX, SKILL_NAME, SKILL_NAME_MAX } from '../contracts/skills.ts';
import { HubError } from '../errors.ts';

export interface SkillFrontMatter {
  name: string;
  description: string;
  /** The instructions after the front matter. */
  body: string;
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * A SKILL.md's front matter as data, every key of it (for the Skills extension's entries); `{}`
 * when it has none that parses (the hub checked it when the skill was added).
 */
export function frontMatterOf(text: string): Record<string, unknown> {
  const match = FRONT_MATTER.exec(text);
  if (!match) return {};
  try {
    const data: unknown = parse(match[1] ?? '', { maxAliasCount: 0, prettyErrors: false, logLevel: 'error' });
    return typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (JSON.parse(JSON.stringify(data)) as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A skill's name and description from its SKILL.md text. `where` names the file in messages. */
export function parseSkillFile(text: string, where: string): SkillFrontMatter {
  const match = FRONT_MATTER.exec(text);
  if (!match) {
    throw new HubError(
      'invalid_input',
      `${where} has no front matter: it must start with a line "---", then "name: <name>" and "description: <what it is for>", then "---"`,
    );
  }
  let data: unknown;
  try {
    data = parse(match[1] ?? '', { maxAliasCount: 0, prettyErrors: false, logLevel: 'error' });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new HubError('invalid_input', `${where}: its front matter is not valid YAML (${reason})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new HubError(
      'invalid_input',
      `${where}: its front matter must be YAML keys, with name and description`,
    );
  }
  const fields = data as Record<string, unknown>;
  const name = fields.name;
  const description = fields.description;
  if (typeof name !== 'string' || name === '') {
    throw new HubError(
      'invalid_input',
      `${where}: its front matter needs "name: <name>" (lowercase letters, digits, hyphens)`,
    );
  }
  checkSkillName(name, where);
  if (description !== undefined && typeof description !== 'string') {
    throw new HubError(
      'invalid_input',
      `${where}: its description must be text; put it in quotes ("description: "…"")`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw new HubError(
      'invalid_input',
      `${where}: its front matter needs "description: <what the skill is for and when to use it>"`,
    );
  }
  if (description.length > SKILL_DESCRIPTION_MAX) {
    throw new HubError(
      'invalid_input',
      `${where}: its description is ${description.length} characters; shorten it to ${SKILL_DESCRIPTION_MAX} at most`,
    );
  }
  return { name, description: description.trim(), body: text.slice(match[0].length) };
}

/** Refuses a name outside Agent Skills' rule, saying what a good one looks like. */
export function checkSkillName(name: string, where: string): void {
  if (name.length > SKILL_NAME_MAX || !SKILL_NAME.test(name)) {
    throw new HubError(
      'invalid_input',
      `${where}: the skill name ${JSON.stringify(name)} is not allowed: use lowercase letters, digits and single hyphens, at most ${SKILL_NAME_MAX} characters (e.g. "pdf-forms")`,
    );
  }
}
