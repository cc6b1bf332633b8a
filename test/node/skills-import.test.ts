/**
 * `capabilities hub import` turns the skills the harnesses read into the hub's skills: the real
 * CLI in a subprocess, with a temporary HOME holding skill folders (no MCP servers). A folder two
 * harnesses read (a link) is imported once; a folder that is not a valid skill, pi's single `.md`
 * skill and a copy `hub connect` installed are skipped with the reason; without --yes and no
 * terminal nothing is added; importing again adds nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliResult, cliEnv } from './cli-process.ts';
import { skillMd } from './skill-folders.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'capabilities-skills-import-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  };
  write('.claude/skills/commit/SKILL.md', skillMd('commit', 'Write a commit message.'));
  write('.claude/skills/commit/examples.md', '# Examples\n');
  write('.agents/skills/pdf/SKILL.md', skillMd('pdf', 'Read PDFs.'));
  symlinkSync(join(home, '.agents/skills/pdf'), join(home, '.claude/skills/pdf'));
  write('.claude/skills/broken/SKILL.md', 'no front matter here\n');
  write('.pi/agent/skills/review.md', '# Review\n');
  write('.cursor/skills/installed/SKILL.md', skillMd('installed', 'Put there by hub connect.'));
  write('.cursor/skills/installed/.capabilities-skill.json', '{}\n');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function run(args: readonly string[]): CliResult {
  const {
    CODEX_HOME: _c,
    CLAUDE_CONFIG_DIR: _d,
    XDG_CONFIG_HOME: _x,
    HERMES_HOME: _h,
    PI_CODING_AGENT_DIR: _p,
    ...env
  } = cliEnv(join(home, 'hub-home'), { HOME: home });
  const result = spawnSync(BIN, args, { cwd: home, env, encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
const names = () =>
  (JSON.parse(run(['--json', 'hub', 'skills', 'list']).stdout) as { skills: { name: string }[] }).skills.map(
    (s) => s.name,
  );

describe('hub import, skills', { timeout: 180_000 }, () => {
  it('imports each skill folder found once, skips what is not one with the reason, and asks first', () => {
    expect(run(['hub', 'init']).status).toBe(0);
    const dry = run(['hub', 'import', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("skills found; the import adds each skill folder to the hub's skills.");
    expect(names()).toEqual([]);

    const unasked = run(['hub', 'import']);
    expect(unasked.status).not.toBe(0);
    expect(unasked.stderr).toContain('pass --yes to consent to exactly that');
    expect(unasked.stderr).toContain('commit  from');
    expect(names()).toEqual([]);

    const imported = run(['--json', 'hub', 'import', '--yes']);
    expect(imported.status, imported.stderr).toBe(0);
    const { skills } = JSON.parse(imported.stdout) as {
      skills: { imported: { name: string; from: string }[]; skipped: { from: string; reason: string }[] };
    };
    expect(skills.imported).toEqual([
      { name: 'pdf', from: join(home, '.agents/skills/pdf') },
      { name: 'commit', from: join(home, '.claude/skills/commit') },
    ]);
    expect(skills.skipped).toEqual([
      { from: join(home, '.claude/skills/broken'), reason: expect.stringContaining('has no front matter') },
      { from: join(home, '.cursor/skills/installed'), reason: expect.stringContaining("the hub's own copy") },
      {
        from: join(home, '.pi/agent/skills/review.md'),
        reason: expect.stringContaining('not a skill folder'),
      },
    ]);
    expect(names()).toEqual(['commit', 'pdf']);

    const again = run(['hub', 'import', '--yes']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('already in the hub as "commit"');
    expect(again.stdout).not.toContain('Imported');
    expect(names()).toEqual(['commit', 'pdf']);
  }, 120_000);
});
