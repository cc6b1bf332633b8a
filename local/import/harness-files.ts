/**
 * The one seam between the importer and the machine: where home and the project are, the
 * environment, the platform, and reading files and folders. Readers are pure over it, so tests
 * hand them a fixture folder as HOME; `nodeHarnessFiles` (node-files.ts) is the real one.
 */

export type Platform = 'linux' | 'darwin' | 'win32' | (string & {});

export interface DirEntry {
  name: string;
  directory: boolean;
  file: boolean;
}

export interface HarnessFiles {
  home: string;
  /** The project the person is in: project-scoped files are looked up here. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: Platform;
  /** The file's text; `undefined` when there is no such file. Throws when it exists but cannot be read (EACCES). */
  readFile(path: string): string | undefined;
  /** A folder's entries (symlinks followed); empty when there is no such folder. */
  listDir(path: string): readonly DirEntry[];
  /** The path with symlinks resolved; the path itself when it does not exist. */
  realpath(path: string): string;
}

/** `a/b/c` with `/` whatever the platform: harness paths here are Linux and macOS paths. */
export function joinPath(...parts: string[]): string {
  return parts
    .filter((part) => part !== '')
    .join('/')
    .replace(/\/{2,}/g, '/');
}
