/**
 * The hub's skills, as a person administers them: what adding a folder would do (a new skill, the
 * same one again, a changed one to review, or a name another folder already holds), then storing
 * it (its record and its files' bytes), listing and removing. A changed skill (a new digest from
 * the same folder, or a new commit of the same git repository and path) is shown as a change and
 * replaces the stored one only once a person accepts it, as a changed tool is reviewed.
 *
 * The host reads the folder and words the questions; the engine only judges and stores. A skill is
 * stored whole in one statement, so a failure leaves nothing half-added.
 */
import { type Skill, type SkillFile, type SkillFileData, skillOrigin } from '../contracts/skills.ts';
import { HubError } from '../errors.ts';
import type { Clock, HubStore } from '../ports.ts';
import { type SkillBundle, skillFromBundle } from './skill-bundle.ts';

/** What adding a skill folder would do. */
export type SkillPlan =
  | { kind: 'new'; skill: Skill; contents: readonly SkillFileData[] }
  /** The same files again; `contents` fills in a skill stored before the hub kept its files. */
  | { kind: 'unchanged'; skill: Skill; contents: readonly SkillFileData[] }
  /** The same folder (or repository) with other contents: the person reviews `changes` before it replaces `previous`. */
  | {
      kind: 'changed';
      skill: Skill;
      contents: readonly SkillFileData[];
      previous: Skill;
      changes: SkillChanges;
    }
  /** Another folder's (or repository's) skill holds this name already. */
  | { kind: 'collision'; skill: Skill; previous: Skill };

/** Which files a changed skill added, removed or changed, by path. */
export interface SkillChanges {
  added: string[];
  removed: string[];
  changed: string[];
  /** The description, when it changed. */
  description?: { from: string; to: string };
  /** Where it comes from, when that changed (another commit of the same repository). */
  source?: { from: string; to: string };
  /**
   * SKILL.md's lines, when it changed: what agents read, so the person sees what they accept.
   * Lines only in the old text, then lines only in the new, each at most SHOWN_LINES.
   */
  instructions?: { removed: string[]; added: string[]; more: number };
}

/** How many changed lines of SKILL.md a review shows each way. */
const SHOWN_LINES = 20;

/** The lines of `from` not in `to` and of `to` not in `from` (as multisets), in order. */
function lineChanges(from: string, to: string): { removed: string[]; added: string[]; more: number } {
  const only = (a: string[], b: string[]) => {
    const left = new Map<string, number>();
    for (const line of b) left.set(line, (left.get(line) ?? 0) + 1);
    return a.filter((line) => {
      const n = left.get(line) ?? 0;
      if (n === 0) return true;
      left.set(line, n - 1);
      return false;
    });
  };
  const before = from.split(/\r?\n/);
  const after = to.split(/\r?\n/);
  const removed = only(before, after);
  const added = only(after, before);
  const more = Math.max(0, removed.length - SHOWN_LINES) + Math.max(0, added.length - SHOWN_LINES);
  return { removed: removed.slice(0, SHOWN_LINES), added: added.slice(0, SHOWN_LINES), more };
}

export class Skills {
  readonly #store: HubStore;
  readonly #clock: Clock;

  constructor(store: HubStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Judges a folder the host read; HubError('invalid_input' or 'limit') when it is not a skill. */
  async plan(bundle: SkillBundle): Promise<SkillPlan> {
    const skill = await skillFromBundle(bundle, this.#clock.now());
    const contents = bundle.files;
    const previous = this.#store.getSkill(skill.name);
    if (!previous) {
      // The same folder (or repository path) under a new name would leave the old one served.
      const renamed = this.#store
        .listSkills()
        .find((other) => skillOrigin(other.source) === skillOrigin(skill.source));
      if (renamed) {
        throw new HubError(
          'conflict',
          `${skill.source} is the skill ${renamed.name} in the hub, and its SKILL.md now names it ${skill.name}; remove ${renamed.name} from the hub first, then add it again under its new name`,
        );
      }
      return { kind: 'new', skill, contents };
    }
    if (skillOrigin(previous.source) !== skillOrigin(skill.source)) {
      return { kind: 'collision', skill, previous };
    }
    if (previous.digest === skill.digest && previous.source === skill.source) {
      return { kind: 'unchanged', skill: previous, contents };
    }
    return { kind: 'changed', skill, contents, previous, changes: changesOf(previous, skill) };
  }

  /** Stores what `plan` found: a new skill, or a changed one the person accepted. */
  apply(plan: SkillPlan): Skill {
    switch (plan.kind) {
      case 'new':
        this.#store.addSkill(plan.skill, plan.contents);
        return plan.skill;
      case 'unchanged':
        // Added before the hub kept files: the same reviewed digest, so its files are stored now.
        if (this.#store.getSkillContents(plan.skill.name)?.length === 0) {
          this.#store.replaceSkill(plan.skill, plan.contents);
        }
        return plan.skill;
      case 'changed': {
        const current = this.#store.getSkill(plan.skill.name);
        if (current?.digest !== plan.previous.digest) {
          throw new HubError(
            'conflict',
            `the skill ${plan.skill.name} changed in the hub while it was being reviewed; add it again to review the change`,
          );
        }
        const skill = { ...plan.skill, addedAt: plan.previous.addedAt };
        this.#store.replaceSkill(skill, plan.contents);
        return skill;
      }
      case 'collision':
        throw new HubError(
          'conflict',
          `a skill named ${plan.skill.name} is already in the hub, added from ${plan.previous.source}; remove that one first, or give this one another name in its SKILL.md`,
        );
    }
  }

  list(): Skill[] {
    return this.#store.listSkills();
  }

  get(name: string): Skill | undefined {
    return this.#store.getSkill(name);
  }

  /** A skill's files with their bytes (to install it into a harness); undefined when there is none. */
  contents(name: string): SkillFileData[] | undefined {
    return this.#store.getSkillContents(name);
  }

  /** Forgets a skill; HubError('not_found') naming the skills there are. */
  remove(name: string): void {
    if (this.#store.removeSkill(name)) return;
    const names = this.#store.listSkills().map((skill) => skill.name);
    throw new HubError(
      'not_found',
      `no skill named ${JSON.stringify(name)}; the hub holds ${names.length > 0 ? names.join(', ') : 'no skills yet'}`,
    );
  }
}

function changesOf(previous: Skill, next: Skill): SkillChanges {
  const before = new Map(previous.files.map((file: SkillFile) => [file.path, file.sha256]));
  const after = new Map(next.files.map((file: SkillFile) => [file.path, file.sha256]));
  const changes: SkillChanges = {
    ...(previous.source === next.source ? {} : { source: { from: previous.source, to: next.source } }),
    added: [...after.keys()].filter((path) => !before.has(path)),
    removed: [...before.keys()].filter((path) => !after.has(path)),
    changed: [...after.keys()].filter((path) => before.has(path) && before.get(path) !== after.get(path)),
  };
  if (previous.description !== next.description) {
    changes.description = { from: previous.description, to: next.description };
  }
  if (previous.text !== next.text) changes.instructions = lineChanges(previous.text, next.text);
  return changes;
}
