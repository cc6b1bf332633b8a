/**
 * `describe("skill:<name>")`: a skill's SKILL.md as it was added, then the list of its files
 * (path and size), within what is left of the describe budget. A SKILL.md longer than that is cut
 * at a line, with a note saying how much was left out; a skill with no room at all is named in a
 * note instead. Its files are listed, never read or run: they are data for the agent's harness.
 */
import { closest } from '../closest.ts';
import type { Skill } from '../contracts/skills.ts';
import { HubError } from '../errors.ts';
import { countTokens } from '../typegen/index.ts';

/** `skill:` before a skill's name marks it as a describe target (and in search answers). */
export const SKILL_TARGET = 'skill:';

export function isSkillTarget(target: string): boolean {
  return target.trim().startsWith(SKILL_TARGET);
}

/** The skills `targets` name (each `skill:<name>`), in order, each once; not_found names the closest. */
export function resolveSkills(skills: readonly Skill[], targets: readonly string[]): Skill[] {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const found: Skill[] = [];
  const missing: string[] = [];
  for (const target of targets) {
    const name = target.trim().slice(SKILL_TARGET.length).trim();
    const skill = byName.get(name);
    if (!skill) {
      const near = closest(name, byName.keys()).map((n) => `${SKILL_TARGET}${n}`);
      missing.push(
        `no skill ${JSON.stringify(target)}${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`,
      );
    } else if (!found.includes(skill)) found.push(skill);
  }
  if (missing.length > 0) {
    throw new HubError(
      'not_found',
      `describe found ${missing.join('; ')}. Skills are described as skill:<name>; call search to find them by what they are for.`,
    );
  }
  return found;
}

/** The skills' text within `budget` tokens; never more. */
export function describeSkills(skills: readonly Skill[], budget: number): string {
  const parts: string[] = [];
  let left = budget;
  const omitted: string[] = [];
  for (const skill of skills) {
    const whole = render(skill, skill.text, '');
    const wholeTokens = countTokens(whole, left + 1);
    if (wholeTokens <= left) {
      parts.push(whole);
      left -= wholeTokens;
      continue;
    }
    const cut = longestCut(skill, left);
    if (cut === undefined) {
      omitted.push(`${SKILL_TARGET}${skill.name}`);
      continue;
    }
    parts.push(cut.text);
    left -= cut.tokens;
  }
  if (omitted.length > 0) {
    const note = `// Left out for the budget: ${omitted.join(', ')}. Describe them on their own.\n`;
    if (countTokens(note) <= left) parts.push(note);
  }
  return parts.join('\n');
}

function render(skill: Skill, text: string, cutNote: string): string {
  const files = skill.files.map((file) => `//   ${file.path} (${file.bytes} bytes)`).join('\n');
  const body = text.endsWith('\n') ? text : `${text}\n`;
  return `// ${SKILL_TARGET}${skill.name}: its SKILL.md, then its files\n${body}${cutNote}// Files:\n${files}\n`;
}

/** The SKILL.md cut at the last line that fits, with its note; undefined when not even the frame does. */
function longestCut(skill: Skill, budget: number): { text: string; tokens: number } | undefined {
  const lines = skill.text.split('\n');
  const attempt = (n: number) => {
    const note = `// … cut for the budget: ${lines.length - n} more lines of SKILL.md; its whole text is the MCP resource skill://${skill.name}/SKILL.md.\n`;
    const text = render(skill, lines.slice(0, n).join('\n'), note);
    return { text, tokens: countTokens(text, budget + 1) };
  };
  let low = 0;
  let high = lines.length - 1;
  if (attempt(0).tokens > budget) return undefined;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (attempt(mid).tokens <= budget) low = mid;
    else high = mid - 1;
  }
  return attempt(low);
}
