/**
 * Skills in a `search` answer: ranked on their name and description only (a skill's instructions
 * are what `describe` reads, not what finds it), with the same words as tools (tokenize.ts), and
 * shown after the tools under a `skills` header, each marked `[skill]` with its describe target:
 *
 *   skills
 *     skill:pdf-forms   [skill]
 *       Fill in PDF forms from a JSON description of the fields.
 *
 * Ranking: each query term found in the name counts NAME_WEIGHT, in the description 1, both
 * weighted by how rare the term is among the hub's skills; ties go by name.
 */
import type { Skill } from '../contracts/skills.ts';
import { firstSentence } from './first-sentence.ts';
import { terms } from './tokenize.ts';

const NAME_WEIGHT = 3;
/** The marker a skill's line carries, so a model tells it from a tool it can call. */
export const SKILL_MARKER = '[skill]';

/** The skills `query` matches, best first, at most `limit`, and how many matched in all. */
export function rankSkills(
  skills: readonly Skill[],
  query: string,
  limit: number,
): { hits: Skill[]; total: number } {
  const wanted = [...new Set(terms(query))];
  if (wanted.length === 0) return { hits: [], total: 0 };
  const fields = skills.map((skill) => ({
    skill,
    name: new Set(terms(skill.name)),
    description: new Set(terms(skill.description)),
  }));
  const idf = new Map<string, number>();
  for (const term of wanted) {
    const holding = fields.filter((f) => f.name.has(term) || f.description.has(term)).length;
    idf.set(term, Math.log(1 + (skills.length - holding + 0.5) / (holding + 0.5)));
  }
  const scored = fields
    .map((f) => {
      let score = 0;
      for (const term of wanted) {
        const weight = (f.name.has(term) ? NAME_WEIGHT : 0) + (f.description.has(term) ? 1 : 0);
        score += weight * (idf.get(term) ?? 0);
      }
      return { skill: f.skill, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : 1));
  return { hits: scored.slice(0, limit).map((s) => s.skill), total: scored.length };
}

/** The `skills` group of an answer: the header, then each skill's target, marker and first sentence. */
export function skillLines(skills: readonly Skill[]): string[] {
  if (skills.length === 0) return [];
  const lines = ['skills'];
  for (const skill of skills) {
    lines.push(`  skill:${skill.name}   ${SKILL_MARKER}`);
    const summary = firstSentence(skill.description);
    if (summary !== '') lines.push(`    ${summary}`);
  }
  return lines;
}
