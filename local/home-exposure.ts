/**
 * Which parts of a stdio source's command line and settings reach the hub's home (issue:
 * security, finding 2). A filesystem server rooted at `~` or `/` (or at the home itself) can
 * read the hub's store, its HTTP token and the secret store's fallback file, and a read-only tool
 * runs without asking. Scrubbing hides the secret values in what it returns, but not in every
 * form a tool could return them in (a byte range, a grep count), so a person should know, and
 * say yes to it explicitly, before such a source is added. A best effort over the command line:
 * a program can always open any path it likes, and the consent to run it is the boundary.
 *
 * A part counts when it, or a piece of it, names a path (absolute, `~`, `./`, `../`, a `file://`
 * URL, a name that exists where the command runs) that holds one of the hub's own places (its
 * folder, the secrets file) or lies inside one, after symbolic links are resolved. A file of the
 * source's own beside them in the home (a memory server's `memory.jsonl`) does not count.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts (arguments, then `KEY=value` settings) that reach one of the hub's `places`. */
export function homeExposure(
  command: readonly string[],
  env: Readonly<Record<string, string>>,
  places: readonly string[],
  cwd = process.cwd(),
): string[] {
  const guarded = places.map((place) => real(resolve(place)));
  const parts = [...command, ...Object.entries(env).map(([key, value]) => `${key}=${value}`)];
  return parts.filter((part) =>
    candidates(part, cwd).some((path) => {
      const target = real(resolve(cwd, path));
      return guarded.some((place) => overlaps(target, place));
    }),
  );
}

/**
 * The paths a part may name: itself, and each piece of it between spaces, commas, colons,
 * semicolons and equals signs (`-v ~:/data`, `type=bind,src=~,dst=/data`, `ALLOWED=/tmp:~`,
 * `sh -c "srv ~"`). A bare name counts when it exists where the command runs (`.capabilities`).
 */
function candidates(part: string, cwd: string): string[] {
  const found: string[] = [];
  for (const text of new Set([part, ...part.split(/[\s,:;=]+/)])) {
    const path = asPath(text) ?? (text !== '' && existsSync(resolve(cwd, text)) ? text : undefined);
    if (path !== undefined) found.push(path);
  }
  return found;
}

function asPath(text: string): string | undefined {
  if (text.startsWith('file://')) {
    try {
      return fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  if (text === '~' || text.startsWith('~/')) return join(homedir(), text.slice(1));
  if (isAbsolute(text) || text === '.' || text === '..' || text.startsWith('./') || text.startsWith('../')) {
    return text;
  }
  return undefined;
}

/** True when `folder` (where a command would run) lies inside one of the hub's `places`. */
export function runsInside(folder: string, places: readonly string[]): boolean {
  const target = real(resolve(folder));
  return places.some((place) => {
    const rel = relative(real(resolve(place)), target);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/** True when `path` holds `place` or lies inside it. */
function overlaps(path: string, place: string): boolean {
  const inward = relative(path, place);
  const outward = relative(place, path);
  const within = (rel: string) => rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  return within(inward) || within(outward);
}

/** The path with symbolic links resolved, as far as it exists. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
