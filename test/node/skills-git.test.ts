/**
 * `capabilities hub skills add <git URL>#<commit> [--path <folder>]` as a person runs it: the real
 * CLI in a subprocess, over a git repository made in a temporary folder (a file:// URL, no
 * network). A pinned commit is fetched, read and recorded with its URL and commit; another commit
 * of the same repository is shown as a change and asked about; a URL not pinned to a full commit,
 * a dangerous transport, a commit the repository does not have, a path it does not have and a
 * skill without front matter are each a clear error. Every run leaves no temporary checkout.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliResult, cliEnv, hubHome } from './cli-process.ts';
import { skillMd } from './skill-folders.ts';

let home: string;
let removeHome: () => void;
/** Holds the repository, and is TMPDIR for the CLI: it must hold nothing else afterwards. */
let scratch: string;
let temp: string;
let repo: string;
beforeEach(() => {
  ({ home, remove: removeHome } = hubHome());
  scratch = mkdtempSync(join(tmpdir(), 'capabilities-skill-git-test-'));
  temp = join(scratch, 'tmp');
  repo = join(scratch, 'repo');
  mkdirSync(temp);
  mkdirSync(repo);
  git(['init', '--quiet', '--initial-branch=main']);
});
afterEach(() => {
  removeHome();
  rmSync(scratch, { recursive: true, force: true });
});

function git(args: readonly string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Writes these files into the repository and commits them; returns the commit. */
function commit(files: Record<string, string>, message = 'skill'): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(['add', '--all']);
  git(['commit', '--quiet', '-m', message]);
  return git(['rev-parse', 'HEAD']);
}

function cli(args: readonly string[]): CliResult {
  const result = spawnSync(BIN, args, {
    cwd: tmpdir(),
    env: cliEnv(home, { TMPDIR: temp }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const url = () => `file://${repo}`;
const listed = () =>
  (
    JSON.parse(cli(['--json', 'hub', 'skills', 'list']).stdout) as {
      skills: { name: string; source: string }[];
    }
  ).skills;
const noCheckoutLeft = () => expect(readdirSync(temp)).toEqual([]);

describe('hub skills add <git URL>#<commit>', { timeout: 180_000 }, () => {
  it('fetches the pinned commit, records URL and commit, and reviews another commit as a change', () => {
    const first = commit({
      'skills/pdf-forms/SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms.'),
      'skills/pdf-forms/fields.md': '# Fields\n',
      'README.md': 'not the skill\n',
    });
    const added = cli(['--json', 'hub', 'skills', 'add', `${url()}#${first}`, '--path', 'skills/pdf-forms']);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: true, name: 'pdf-forms', files: 2 });
    expect(listed()).toEqual([
      expect.objectContaining({ name: 'pdf-forms', source: `${url()}#${first}:skills/pdf-forms` }),
    ]);
    noCheckoutLeft();

    const again = cli(['hub', 'skills', 'add', `${url()}#${first}`, '--path', 'skills/pdf-forms']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('already in the hub, unchanged');

    const second = commit({ 'skills/pdf-forms/fields.md': '# Fields, all of them\n' }, 'more');
    const asked = cli(['hub', 'skills', 'add', `${url()}#${second}`, '--path', 'skills/pdf-forms']);
    expect(asked.status).not.toBe(0);
    expect(asked.stderr).toContain(
      `from: ${url()}#${first}:skills/pdf-forms → ${url()}#${second}:skills/pdf-forms`,
    );
    expect(asked.stderr).toContain('~ fields.md');
    expect(asked.stderr).toContain('pass --yes to accept them');
    expect(listed()[0]?.source).toContain(first);

    const accepted = cli([
      '--json',
      'hub',
      'skills',
      'add',
      '--yes',
      `${url()}#${second}`,
      '--path',
      'skills/pdf-forms',
    ]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ changed: true, accepted: true });
    expect(listed()[0]?.source).toBe(`${url()}#${second}:skills/pdf-forms`);
    noCheckoutLeft();
  });

  it('reads a skill at the top of the repository, leaving .git out', () => {
    const top = commit({ 'SKILL.md': skillMd('top-skill', 'A skill at the top.') });
    const added = cli(['--json', 'hub', 'skills', 'add', `${url()}#${top}`]);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: 'top-skill', files: 1 });
    noCheckoutLeft();
  });

  it('refuses what is not pinned, not allowed or not there, each saying what to do, and keeps nothing', () => {
    const good = commit({ 'SKILL.md': skillMd('good', 'Good.'), 'plain/SKILL.md': 'no front matter\n' });
    const cases: [string[], string][] = [
      [[url()], 'pin the skill to a full commit'],
      [[`${url()}#main`], 'pin the skill to a full commit'],
      [[`${url()}#${good.slice(0, 12)}`], 'pin the skill to a full commit'],
      [
        [`ext::sh -c touch% ${join(scratch, 'ran')}#${good}`],
        'the hub fetches skills only over https, ssh, git or file URLs',
      ],
      [[`http://example.com/repo.git#${good}`], '(use https)'],
      [
        [`https://alice:tok3n-value@example.com/repo.git#${good}`],
        'carries a user name and password or a token; the hub would keep it with the skill and show it. Give the URL without them ("https://example.com/repo.git")',
      ],
      [[`ssh://git:pa55word@example.com/repo.git#${good}`], 'carries a user name and password or a token'],
      [[`${url()}#${'0'.repeat(40)}`], `could not fetch commit ${'0'.repeat(40)}`],
      [[`file://${join(scratch, 'nowhere')}#${good}`], 'could not fetch commit'],
      [[`${url()}#${good}`, '--path', 'missing'], 'has no folder missing at that commit'],
      [[`${url()}#${good}`, '--path', '../repo'], '--path takes a folder inside the repository'],
      [[`${url()}#${good}`, '--path', 'plain'], 'has no front matter'],
    ];
    for (const [args, message] of cases) {
      const added = cli(['hub', 'skills', 'add', ...args]);
      expect(added.status, args.join(' ')).not.toBe(0);
      expect(added.stderr, args.join(' ')).toContain(message);
      expect(added.stderr).not.toMatch(/tok3n-value|pa55word/);
      expect(added.stderr).not.toContain(temp);
      noCheckoutLeft();
    }
    expect(readdirSync(scratch).sort()).toEqual(['repo', 'tmp']);
    expect(listed()).toEqual([]);
    const folder = cli(['hub', 'skills', 'add', repo, '--path', 'plain']);
    expect(folder.stderr).toContain('--path is for a git URL');
  });

  it('refuses a name another source already holds', () => {
    const one = commit({ 'a/SKILL.md': skillMd('same', 'One.'), 'b/SKILL.md': skillMd('same', 'Two.') });
    expect(cli(['hub', 'skills', 'add', `${url()}#${one}`, '--path', 'a']).status).toBe(0);
    const other = cli(['hub', 'skills', 'add', `${url()}#${one}`, '--path', 'b']);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toContain('a skill named "same" is already in the hub');
    noCheckoutLeft();
  });
});
