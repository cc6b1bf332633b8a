/**
 * J6 end to end, as a person does it: a skill added to the hub is found by search, read with
 * describe("skill:…") and as a resource over MCP by the official client, then `hub connect`
 * installs a copy of it into the skill folders of the harnesses connected (Claude Code's
 * `~/.claude/skills`, Codex's `~/.agents/skills`; Cursor reads either), `hub skills add | remove`
 * keep those copies in step, and `hub disconnect` takes them out again. A folder of the person's
 * own with the same name is never touched, a copy the person changed is kept and reported, and
 * no temporary folder is left behind. Real CLI processes in a temporary HOME; the real Claude
 * Code CLI still reads its config back.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, REPO } from './cli-process.ts';
import { type FixtureHome, fixtureHome, harnessEnv } from './connect-fixtures.ts';
import { type SkillFolders, skillFolders, skillMd } from './skill-folders.ts';
import { stdioClient, textOf } from './surface-fixture.ts';

const CLAUDE = join(REPO, 'node_modules', '.bin', 'claude');
const MARKER = '.capabilities-skill.json';

let f: FixtureHome;
let folders: SkillFolders;
let client: Client | undefined;
beforeEach(() => {
  f = fixtureHome(['claudeCode', 'codex', 'cursor']);
  folders = skillFolders();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  f.remove();
  folders.remove();
});

function run(command: string, args: readonly string[]) {
  const result = spawnSync(command, args, {
    env: harnessEnv(f, cliEnv(f.hub)),
    cwd: f.home,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
const hub = (args: readonly string[]) => run(BIN, args);

const claudeSkills = () => join(f.home, '.claude', 'skills');
const agentSkills = () => join(f.home, '.agents', 'skills');
const cursorSkills = () => join(f.home, '.cursor', 'skills');
const PDF = {
  'SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms from a JSON description of the fields.'),
  'scripts/fill.py': 'print("never run by the hub")\n',
  'assets/blank.bin': Buffer.from([0, 1, 2, 255, 254, 0]),
};

/** Every file under `dir`, relative, with its bytes. */
function tree(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (at: string, prefix: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(at, entry.name), path);
      else out[path] = readFileSync(join(at, entry.name));
    }
  };
  walk(dir, '');
  return out;
}
const bytesOf = (files: Record<string, string | Buffer>) =>
  Object.fromEntries(Object.entries(files).map(([path, data]) => [path, Buffer.from(data)]));
const withoutMarker = (files: Record<string, Buffer>) =>
  Object.fromEntries(Object.entries(files).filter(([path]) => path !== MARKER));

describe('J6: a skill added to the hub, in every connected harness', () => {
  it('is found and read over MCP, installed by connect, kept in step by add and remove, and taken out by disconnect', async () => {
    const added = hub(['hub', 'skills', 'add', folders.write('pdf-forms', PDF)]);
    expect(added.status, added.stderr).toBe(0);

    // The model's side: search, describe and the skill:// resource, through the official client.
    const session = await stdioClient(f.hub, 'auto');
    client = session.client;
    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'fill pdf forms' } }));
    expect(found).toContain('skill:pdf-forms   [skill]');
    const described = textOf(
      await client.callTool({ name: 'describe', arguments: { targets: ['skill:pdf-forms'] } }),
    );
    expect(described).toContain('scripts/fill.py (30 bytes)');
    const read = await client.readResource({ uri: 'skill://pdf-forms/SKILL.md' });
    expect(read.contents[0]).toMatchObject({ text: PDF['SKILL.md'] });
    await client.close();
    client = undefined;

    // The person's own skills: one with another name, one with the hub's skill's name.
    mkdirSync(join(claudeSkills(), 'mine'), { recursive: true });
    writeFileSync(join(claudeSkills(), 'mine', 'SKILL.md'), skillMd('mine', 'Mine.'));
    mkdirSync(join(agentSkills(), 'pdf-forms'), { recursive: true });
    writeFileSync(join(agentSkills(), 'pdf-forms', 'SKILL.md'), skillMd('pdf-forms', 'My own PDF skill.'));
    const theirs = tree(join(agentSkills(), 'pdf-forms'));

    const connect = hub(['--json', 'hub', 'connect', '--checkout', '--client', 'claude-code,codex,cursor']);
    expect(connect.status, connect.stderr).toBe(0);
    const report = JSON.parse(connect.stdout) as {
      skills: { root: string; name: string; status: string; harnesses: string[] }[];
    };
    expect(report.skills.map((s) => [s.root, s.harnesses, s.name, s.status])).toEqual([
      [claudeSkills(), ['claude-code', 'cursor'], 'pdf-forms', 'installed'],
      [agentSkills(), ['codex'], 'pdf-forms', 'kept'],
    ]);
    expect(withoutMarker(tree(join(claudeSkills(), 'pdf-forms')))).toEqual(bytesOf(PDF));
    expect(JSON.parse(readFileSync(join(claudeSkills(), 'pdf-forms', MARKER), 'utf8'))).toMatchObject({
      installedBy: 'capabilities',
      name: 'pdf-forms',
    });
    expect(tree(join(agentSkills(), 'pdf-forms'))).toEqual(theirs);
    expect(existsSync(cursorSkills())).toBe(false);
    expect(readdirSync(claudeSkills()).sort()).toEqual(['mine', 'pdf-forms']);

    // Claude Code still reads its own config, with the hub's entry in it.
    const get = run(CLAUDE, ['mcp', 'get', 'capabilities']);
    expect(get.status, get.stderr).toBe(0);
    expect(get.stdout).toContain('capabilities');

    const text = hub(['hub', 'connect', '--checkout', '--client', 'claude-code,codex,cursor']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Skills in ${claudeSkills()} (claude-code, cursor):`);
    expect(text.stdout).toContain('pdf-forms: unchanged');
    expect(text.stdout).toContain("is not the hub's copy (your own skill of that name?)");

    // Added after connect: installed at once; changed: updated; removed: taken out.
    const notes = folders.write('notes', { 'SKILL.md': skillMd('notes', 'Take notes.') });
    const addNotes = hub(['hub', 'skills', 'add', notes]);
    expect(addNotes.status, addNotes.stderr).toBe(0);
    expect(addNotes.stderr).toContain('notes: installed');
    expect(readFileSync(join(claudeSkills(), 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillMd('notes', 'Take notes.'),
    );
    expect(readFileSync(join(agentSkills(), 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillMd('notes', 'Take notes.'),
    );
    writeFileSync(join(notes, 'SKILL.md'), skillMd('notes', 'Take better notes.'));
    expect(hub(['hub', 'skills', 'add', '--yes', notes]).status).toBe(0);
    expect(readFileSync(join(claudeSkills(), 'notes', 'SKILL.md'), 'utf8')).toBe(
      skillMd('notes', 'Take better notes.'),
    );
    const removeNotes = hub(['hub', 'skills', 'remove', 'notes']);
    expect(removeNotes.status, removeNotes.stderr).toBe(0);
    expect(existsSync(join(claudeSkills(), 'notes'))).toBe(false);
    expect(existsSync(join(agentSkills(), 'notes'))).toBe(false);

    // A copy the person changed is kept through disconnect; the others go; nothing hidden is left.
    expect(hub(['hub', 'skills', 'add', notes]).status).toBe(0);
    writeFileSync(join(agentSkills(), 'notes', 'mine.md'), 'my addition\n');
    const disconnect = hub(['hub', 'disconnect']);
    expect(disconnect.status, disconnect.stderr).toBe(0);
    expect(disconnect.stdout).toMatch(/notes: kept\n\s+.*was changed since the hub installed it/);
    expect(readdirSync(claudeSkills())).toEqual(['mine']);
    expect(readdirSync(agentSkills()).sort()).toEqual(['notes', 'pdf-forms']);
    expect(tree(join(agentSkills(), 'pdf-forms'))).toEqual(theirs);
    expect(existsSync(join(f.hub, 'hub', 'installed-skills.json'))).toBe(false);
    expect(run(CLAUDE, ['mcp', 'get', 'capabilities']).status).not.toBe(0);
  }, 180_000);

  it('gives Cursor alone its own folder, and disconnecting one harness leaves the others their skills', () => {
    expect(hub(['hub', 'skills', 'add', folders.write('pdf-forms', PDF)]).status).toBe(0);
    expect(hub(['hub', 'connect', '--checkout', '--client', 'cursor']).status).toBe(0);
    expect(withoutMarker(tree(join(cursorSkills(), 'pdf-forms')))).toEqual(bytesOf(PDF));
    expect(existsSync(claudeSkills())).toBe(false);

    expect(hub(['hub', 'connect', '--checkout', '--client', 'claude-code,codex']).status).toBe(0);
    expect(existsSync(join(claudeSkills(), 'pdf-forms', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(agentSkills(), 'pdf-forms', 'SKILL.md'))).toBe(true);

    const codexOnly = hub(['hub', 'disconnect', '--client', 'codex']);
    expect(codexOnly.status, codexOnly.stderr).toBe(0);
    expect(existsSync(join(agentSkills(), 'pdf-forms'))).toBe(false);
    expect(existsSync(join(claudeSkills(), 'pdf-forms', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(cursorSkills(), 'pdf-forms', 'SKILL.md'))).toBe(true);

    expect(hub(['hub', 'disconnect']).status).toBe(0);
    for (const root of [claudeSkills(), agentSkills(), cursorSkills()]) {
      expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
    }
  }, 120_000);

  it('a skill stored before the hub kept files fails to install, saying how, until it is added again', () => {
    const folder = folders.write('pdf-forms', PDF);
    expect(hub(['hub', 'skills', 'add', folder]).status).toBe(0);
    const db = new DatabaseSync(join(f.hub, 'hub', 'hub.db'));
    db.exec('DELETE FROM hub_skill_files');
    db.close();
    const connect = hub(['hub', 'connect', '--checkout', '--client', 'claude-code']);
    expect(connect.status).toBe(1);
    expect(connect.stdout).toContain('pdf-forms: FAILED');
    expect(connect.stdout).toContain(
      "the hub has no copy of pdf-forms's files (it was added before they were kept)",
    );
    expect(existsSync(claudeSkills()) ? readdirSync(claudeSkills()) : []).toEqual([]);

    const again = hub(['hub', 'skills', 'add', folder]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('already in the hub, unchanged');
    expect(again.stderr).toContain('pdf-forms: installed');
    expect(withoutMarker(tree(join(claudeSkills(), 'pdf-forms')))).toEqual(bytesOf(PDF));
  }, 120_000);

  it('refuses to connect to a hub that does not exist, creating none and writing no entry', () => {
    rmSync(f.hub, { recursive: true, force: true });
    const before = readFileSync(f.files.claudeCode, 'utf8');
    const connect = hub(['hub', 'connect', '--checkout', '--client', 'claude-code']);
    expect(connect.status).toBe(1);
    expect(connect.stderr).toContain(
      `there is no hub at ${join(f.hub, 'hub')}. Create it with \`capabilities hub init\``,
    );
    expect(existsSync(join(f.hub, 'hub', 'hub.json'))).toBe(false);
    expect(existsSync(claudeSkills())).toBe(false);
    expect(readFileSync(f.files.claudeCode, 'utf8')).toBe(before);
  });
});
