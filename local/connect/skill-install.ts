/**
 * The hub's skills as folders in the harnesses' skill folders (skill-roots.ts): `hub connect`
 * writes a copy of each skill from the store, `hub skills add | remove` keep those copies in step,
 * `hub disconnect` takes them out again. The files are data the harness reads, never run here.
 *
 * Each copy holds `.capabilities-skill.json` (the marker: the skill's name, digest and every
 * file's SHA-256 as installed), and `<home>/hub/installed-skills.json` records which folders the
 * hub installed into, for which harnesses, with which skills. So:
 * - a folder of that name that is not the hub's copy (no marker, a link) is never touched: it is
 *   the person's own skill, reported as kept;
 * - a copy the person changed since (a file added, removed or edited) is never replaced or
 *   removed, only reported;
 * - a copy is written beside its place under a hidden temporary name and renamed into it, so a
 *   failure leaves no half-written skill folder (the temporary folder is removed).
 * Each skill's files are checked against its manifest's SHA-256 before they are written.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Skill, SkillFileData } from '../../engine/contracts/skills.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { INSTALL_MARKER } from '../../engine/skills/skill-bundle.ts';
import { HARNESS_IDS, type HarnessId } from './harnesses.ts';
import type { SkillRoot } from './skill-roots.ts';

/** The marker in every skill folder the hub installed. */
export const SKILL_MARKER = INSTALL_MARKER;

const Marker = z.object({
  installedBy: z.literal('capabilities'),
  name: z.string(),
  digest: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string() })),
});
type Marker = z.infer<typeof Marker>;

const Record = z.object({
  version: z.literal(1),
  roots: z.array(
    z.object({
      path: z.string(),
      harnesses: z.array(z.enum(HARNESS_IDS)),
      skills: z.array(z.object({ name: z.string(), digest: z.string() })),
    }),
  ),
});
type InstalledRecord = z.infer<typeof Record>;
type RecordedRoot = InstalledRecord['roots'][number];

/** A skill of the hub with its files' bytes (undefined: none stored, added before they were kept). */
export interface HubSkill {
  skill: Skill;
  contents: readonly SkillFileData[] | undefined;
}

export interface SkillOutcome {
  /** The skills folder (`~/.claude/skills`). */
  root: string;
  harnesses: HarnessId[];
  name: string;
  status: 'installed' | 'updated' | 'unchanged' | 'removed' | 'kept' | 'failed';
  message?: string;
}

export const installedSkillsFile = (hubDir: string): string => join(hubDir, 'installed-skills.json');

function readRecord(hubDir: string): InstalledRecord {
  const file = installedSkillsFile(hubDir);
  if (!existsSync(file)) return { version: 1, roots: [] };
  const parsed = Record.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new HubError(
      'corrupt',
      `${file} is not a record of installed skills this version reads; move it away (the skill folders keep their markers) and connect again`,
    );
  }
  return parsed.data;
}

function writeRecord(hubDir: string, record: InstalledRecord): void {
  const file = installedSkillsFile(hubDir);
  const roots = record.roots.filter((root) => root.harnesses.length > 0 || root.skills.length > 0);
  if (roots.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  const next = `${file}.next`;
  writeFileSync(next, `${JSON.stringify({ version: 1, roots }, null, 2)}\n`, { mode: 0o600 });
  renameSync(next, file);
}

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The marker of the folder at `path`, when it is a plain folder the hub installed. */
function markerOf(path: string): Marker | undefined {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info?.isDirectory()) return undefined;
  try {
    const parsed = Marker.safeParse(JSON.parse(readFileSync(join(path, SKILL_MARKER), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the folder at `path` holds exactly the files its marker lists, byte for byte. */
function unchangedSince(path: string, marker: Marker): boolean {
  const found = new Map<string, string>();
  const walk = (dir: string, prefix: string): boolean => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const shown = prefix === '' ? name : `${prefix}/${name}`;
      if (shown === SKILL_MARKER) continue;
      const info = lstatSync(full);
      if (info.isDirectory()) {
        if (!walk(full, shown)) return false;
      } else if (info.isFile()) found.set(shown, sha256(readFileSync(full)));
      else return false;
    }
    return true;
  };
  if (!walk(path, '')) return false;
  return (
    found.size === marker.files.length && marker.files.every((file) => found.get(file.path) === file.sha256)
  );
}

/** The skill's files, each checked against its manifest; a corrupt error when one does not match. */
function checkedContents(hub: HubSkill): readonly SkillFileData[] {
  const { skill, contents } = hub;
  if (contents === undefined || contents.length === 0) {
    throw new HubError(
      'not_found',
      `the hub has no copy of ${skill.name}'s files (it was added before they were kept); add it again with \`capabilities hub skills add ${skill.source.startsWith('/') ? skill.source : '<its folder or URL>'}\``,
    );
  }
  const wanted = new Map(skill.files.map((file) => [file.path, file.sha256]));
  const matches =
    contents.length === wanted.size &&
    contents.every((file) => wanted.get(file.path) === sha256(file.data) && safePath(file.path));
  if (!matches) {
    throw new HubError(
      'corrupt',
      `the stored files of ${skill.name} do not match its manifest; add it again with \`capabilities hub skills add\``,
    );
  }
  return contents;
}

function safePath(path: string): boolean {
  const parts = path.split('/');
  return (
    !path.startsWith('/') && !path.includes('\\') && parts.every((p) => p !== '' && p !== '.' && p !== '..')
  );
}

const hidden = (root: string, name: string, what: string): string =>
  join(root, `.${name}.capabilities-${what}-${randomBytes(4).toString('hex')}`);

/** Writes a copy of the skill with its marker under a temporary name in `root`; returns that folder. */
function writeCopy(root: string, skill: Skill, contents: readonly SkillFileData[]): string {
  mkdirSync(root, { recursive: true });
  const folder = hidden(root, skill.name, 'new');
  try {
    mkdirSync(folder);
    for (const file of contents) {
      const path = join(folder, ...file.path.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.data, { flag: 'wx' });
    }
    const marker: Marker = {
      installedBy: 'capabilities',
      name: skill.name,
      digest: skill.digest,
      files: skill.files.map(({ path, sha256 }) => ({ path, sha256 })),
    };
    writeFileSync(join(folder, SKILL_MARKER), `${JSON.stringify(marker, null, 2)}\n`, { flag: 'wx' });
    return folder;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

const message = (error: unknown): string =>
  isHubError(error) || error instanceof Error ? error.message : String(error);

/** Puts `hub`'s skill into `root` (or leaves a folder there that is not the hub's copy). */
function installOne(root: RecordedRoot, hub: HubSkill): SkillOutcome {
  const { skill } = hub;
  const base = { root: root.path, harnesses: [...root.harnesses], name: skill.name };
  const target = join(root.path, skill.name);
  try {
    const exists = lstatSync(target, { throwIfNoEntry: false }) !== undefined;
    const marker = exists ? markerOf(target) : undefined;
    if (exists && marker === undefined) {
      return {
        ...base,
        status: 'kept',
        message: `${target} is not the hub's copy (your own skill of that name?); left as it is, so the hub's "${skill.name}" is not installed there`,
      };
    }
    if (marker && !unchangedSince(target, marker)) {
      return {
        ...base,
        status: 'kept',
        message: `${target} was changed since the hub installed it; left as it is (remove it to get the hub's copy again)`,
      };
    }
    if (marker && marker.digest === skill.digest) return { ...base, status: 'unchanged' };
    const copy = writeCopy(root.path, skill, checkedContents(hub));
    if (!marker) {
      renameSync(copy, target);
      return { ...base, status: 'installed' };
    }
    const old = hidden(root.path, skill.name, 'old');
    renameSync(target, old);
    renameSync(copy, target);
    rmSync(old, { recursive: true, force: true });
    return { ...base, status: 'updated' };
  } catch (error) {
    return { ...base, status: 'failed', message: message(error) };
  }
}

/** Takes the hub's copy of `name` out of `root`, unless the person changed it or it is not the hub's. */
function removeOne(root: RecordedRoot, name: string): SkillOutcome {
  const base = { root: root.path, harnesses: [...root.harnesses], name };
  const target = join(root.path, name);
  try {
    if (lstatSync(target, { throwIfNoEntry: false }) === undefined) return { ...base, status: 'removed' };
    const marker = markerOf(target);
    if (marker === undefined || marker.name !== name) {
      return { ...base, status: 'kept', message: `${target} is not the hub's copy any more; left as it is` };
    }
    if (!unchangedSince(target, marker)) {
      return {
        ...base,
        status: 'kept',
        message: `${target} was changed since the hub installed it; left as it is (remove it yourself if you like)`,
      };
    }
    const old = hidden(root.path, name, 'old');
    renameSync(target, old);
    rmSync(old, { recursive: true, force: true });
    return { ...base, status: 'removed' };
  } catch (error) {
    return { ...base, status: 'failed', message: message(error) };
  }
}

/** Brings `root` in step with `skills`: each installed or updated, those the hub no longer has removed. */
function syncRoot(root: RecordedRoot, skills: readonly HubSkill[]): SkillOutcome[] {
  const outcomes: SkillOutcome[] = [];
  const kept: RecordedRoot['skills'] = [];
  for (const hub of skills) {
    const outcome = installOne(root, hub);
    outcomes.push(outcome);
    const had = root.skills.find((s) => s.name === hub.skill.name);
    if (outcome.status === 'installed' || outcome.status === 'updated' || outcome.status === 'unchanged') {
      kept.push({ name: hub.skill.name, digest: hub.skill.digest });
    } else if (had && outcome.status === 'failed') kept.push(had);
  }
  const names = new Set(skills.map((hub) => hub.skill.name));
  for (const gone of root.skills.filter((s) => !names.has(s.name))) {
    const outcome = removeOne(root, gone.name);
    outcomes.push(outcome);
    if (outcome.status === 'failed') kept.push(gone);
  }
  root.skills = kept;
  return outcomes;
}

/**
 * `hub connect`: the hub's skills into each of `roots` (for the harnesses connected), and out of
 * them the copies of skills the hub no longer has. Recorded in installed-skills.json.
 */
export function installSkills(
  hubDir: string,
  roots: readonly SkillRoot[],
  skills: readonly HubSkill[],
): SkillOutcome[] {
  const record = readRecord(hubDir);
  const outcomes: SkillOutcome[] = [];
  for (const wanted of roots) {
    let root = record.roots.find((r) => r.path === wanted.path);
    if (!root) {
      root = { path: wanted.path, harnesses: [], skills: [] };
      record.roots.push(root);
    }
    root.harnesses = HARNESS_IDS.filter((id) => root.harnesses.includes(id) || wanted.harnesses.includes(id));
    outcomes.push(...syncRoot(root, skills));
  }
  writeRecord(hubDir, record);
  return outcomes;
}

/** `hub skills add | remove` after a connect: every folder the hub installed into, in step with `skills`. */
export function syncInstalledSkills(hubDir: string, skills: readonly HubSkill[]): SkillOutcome[] {
  const record = readRecord(hubDir);
  const outcomes = record.roots
    .filter((root) => root.harnesses.length > 0)
    .flatMap((root) => syncRoot(root, skills));
  writeRecord(hubDir, record);
  return outcomes;
}

/** Whether any harness is connected with skills installed for it (so add and remove sync). */
export function hasInstalledSkills(hubDir: string): boolean {
  return existsSync(installedSkillsFile(hubDir));
}

/**
 * `hub disconnect`: these harnesses no longer read the hub's skills; a folder no connected
 * harness reads any more loses every copy the hub installed there (except changed ones, reported).
 */
export function uninstallSkills(hubDir: string, harnesses: readonly HarnessId[]): SkillOutcome[] {
  const record = readRecord(hubDir);
  const outcomes: SkillOutcome[] = [];
  for (const root of record.roots) {
    const before = root.harnesses;
    root.harnesses = before.filter((id) => !harnesses.includes(id));
    if (root.harnesses.length > 0) continue;
    const left: RecordedRoot['skills'] = [];
    for (const skill of root.skills) {
      const outcome = removeOne({ ...root, harnesses: before }, skill.name);
      outcomes.push(outcome);
      if (outcome.status === 'failed') left.push(skill);
    }
    root.skills = left;
  }
  writeRecord(hubDir, record);
  return outcomes;
}
