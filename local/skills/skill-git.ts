/**
 * A skill from a git repository pinned to one commit: `<url>#<40-hex commit>`, optionally a
 * folder inside it (`--path`). The system `git` fetches exactly that commit into a new temporary
 * folder (`git init` with no template, `git fetch --depth 1`, `git checkout`), the same reader as
 * for a folder reads it (skill-folder.ts), and the folder is removed whatever happens. Nothing in
 * the repository is run: no hooks (none are installed, and `core.hooksPath` points nowhere), no
 * submodules, no filters from its attributes beyond git's own.
 *
 * Invariants: only https, ssh (`ssh://` or `user@host:path`), git and file URLs are fetched
 * (`GIT_ALLOW_PROTOCOL`); a transport helper (`ext::`, `fd::`) and plain http are refused; a
 * commit is the full 40 hex digits (a branch, tag or short hash could name other contents
 * later); git never prompts (`GIT_TERMINAL_PROMPT=0`). The recorded source is
 * `<url>#<commit>` with `:<path>` after when a path was given (contracts/skills.ts `skillOrigin`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { HubError, isHubError } from '../../engine/errors.ts';
import type { SkillBundle } from '../../engine/skills/skill-bundle.ts';
import { readSkillFolder } from './skill-folder.ts';

/** A git repository at one commit, and the skill's folder inside it. */
export interface GitSkillRef {
  url: string;
  commit: string;
  /** `/`-separated, relative to the repository's top; absent for the top itself. */
  path?: string | undefined;
}

const COMMIT = /^[0-9a-f]{40}$/;
const ALLOWED = 'https:ssh:git:file';
const FETCH_TIMEOUT_MS = 120_000;

/** Whether `given` is meant as a git URL rather than a folder. */
export function isGitUrl(given: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ||
    /^[a-z0-9+.-]+::/i.test(given) ||
    /^[^/\s]+@[^/\s:]+:/.test(given)
  );
}

/** `<url>#<commit>` (and a --path) as a pinned reference, or HubError('invalid_input') saying what to write. */
export function parseGitSkill(given: string, path?: string): GitSkillRef {
  if (/^[a-z0-9+.-]+::/i.test(given)) {
    throw new HubError(
      'invalid_input',
      `${given.split('::')[0]}:: URLs run a command to reach the repository; the hub fetches skills only over https, ssh, git or file URLs`,
    );
  }
  const hash = given.lastIndexOf('#');
  const url = hash < 0 ? given : given.slice(0, hash);
  const commit = hash < 0 ? '' : given.slice(hash + 1).toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (url.startsWith('-') || (scheme !== undefined && !['https', 'ssh', 'git', 'file'].includes(scheme))) {
    throw new HubError(
      'invalid_input',
      `the hub fetches skills over https, ssh, git or file URLs; ${JSON.stringify(url)} is none of these${scheme === 'http' ? ' (use https)' : ''}`,
    );
  }
  if (scheme !== undefined && credentialsIn(url, scheme)) {
    throw new HubError(
      'invalid_input',
      `the URL carries a user name and password or a token; the hub would keep it with the skill and show it. Give the URL without them (${JSON.stringify(withoutCredentials(url))}) and let git's credential helper or your ssh key sign in`,
    );
  }
  if (!COMMIT.test(commit)) {
    throw new HubError(
      'invalid_input',
      `pin the skill to a full commit: ${url}#<the 40 hex digits of the commit you reviewed>. A branch, tag or short hash can name other files later`,
    );
  }
  return { url, commit, ...(path === undefined ? {} : { path: plainPath(path) }) };
}

/** Whether a URL carries a secret: any user info over https, git or file; a password over ssh. */
function credentialsIn(url: string, scheme: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return /\/\/[^/]*@/.test(url);
  }
  return scheme === 'ssh' ? parsed.password !== '' : parsed.username !== '' || parsed.password !== '';
}

function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** The source the hub records for `ref`: `<url>#<commit>`, then `:<path>` when there is one. */
export function gitSource(ref: GitSkillRef): string {
  return `${ref.url}#${ref.commit}${ref.path === undefined ? '' : `:${ref.path}`}`;
}

/** The skill at `ref`, read from a temporary checkout that is gone when this returns or throws. */
export async function readGitSkill(ref: GitSkillRef): Promise<SkillBundle> {
  const source = gitSource(ref);
  const dir = await mkdtemp(join(tmpdir(), 'capabilities-skill-git-'));
  try {
    await git(dir, ['init', '--quiet', '--template=', '.'], source);
    await git(
      dir,
      ['fetch', '--quiet', '--depth', '1', '--no-tags', '--end-of-options', ref.url, ref.commit],
      source,
    );
    // The checkout runs no filter the person's own git config defines (git-lfs's smudge would
    // fetch from wherever the repository's .lfsconfig says): fetching alone uses that config.
    await git(dir, ['checkout', '--quiet', '--detach', 'FETCH_HEAD'], source, { ownConfig: false });
    const head = (await git(dir, ['rev-parse', 'HEAD'], source)).trim();
    if (head !== ref.commit) {
      throw new HubError('invalid_input', `${source}: git checked out ${head}, not the commit asked for`);
    }
    const root = await realpath(dir);
    const folder = ref.path === undefined ? root : join(root, ...ref.path.split('/'));
    const real = await realpath(folder).catch(() => '');
    if (real === '' || (real !== root && !isInside(root, real))) {
      throw new HubError(
        'invalid_input',
        `${source}: the repository has no folder ${ref.path ?? ''} at that commit; pass --path <the folder holding SKILL.md>`,
      );
    }
    try {
      const bundle = await readSkillFolder(real);
      return { source, files: bundle.files };
    } catch (error) {
      // The checkout is about to go: name the repository, not the temporary folder.
      if (isHubError(error)) throw new HubError(error.code, error.message.replaceAll(real, source));
      throw error;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function plainPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const parts = trimmed.split('/');
  if (
    trimmed === '' ||
    trimmed.startsWith('/') ||
    trimmed.includes('\\') ||
    parts.some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new HubError(
      'invalid_input',
      `--path takes a folder inside the repository, relative to its top (e.g. skills/pdf-forms); got ${JSON.stringify(path)}`,
    );
  }
  return trimmed;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel.split(sep)[0] !== '..' && !isAbsolute(rel);
}

/** The person's own ways of reaching a host over ssh, kept. */
const KEPT = new Set(['GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_SSH_VARIANT']);

/** git's environment: never prompting, only the allowed transports, no repository inherited from ours. */
function gitEnv(ownConfig: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_') || KEPT.has(key)) env[key] = value;
  }
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: ALLOWED,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_LFS_SKIP_SMUDGE: '1',
    ...(ownConfig ? {} : { GIT_CONFIG_GLOBAL: '/dev/null' }),
  };
}

/** Runs git in `dir`; a failure says what git said and what to check. */
function git(
  dir: string,
  args: readonly string[],
  source: string,
  { ownConfig = true }: { ownConfig?: boolean } = {},
): Promise<string> {
  const command = [
    ...['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'submodule.recurse=false'],
    ...['-c', 'filter.lfs.smudge=', '-c', 'filter.lfs.process=', '-c', 'filter.lfs.required=false'],
    ...args,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      command,
      { cwd: dir, env: gitEnv(ownConfig), timeout: FETCH_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(
            new HubError(
              'unavailable',
              'adding a skill from a git URL needs git; install git, or clone it yourself and pass the folder',
            ),
          );
        }
        const said = withoutCredentials(stderr.trim().split('\n').slice(-2).join(' ') || error.message);
        const fetching = args[0] === 'fetch';
        reject(
          new HubError(
            fetching ? 'not_found' : 'invalid_input',
            fetching
              ? `could not fetch commit ${source.split('#')[1]?.slice(0, 40)} from ${source.split('#')[0]}: check the URL, that you can reach it, and that the commit exists there (git said: ${said})`
              : `git ${args[0]} failed for ${source} (git said: ${said})`,
          ),
        );
      },
    );
  });
}
