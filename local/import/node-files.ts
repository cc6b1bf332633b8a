/**
 * The real `HarnessFiles`: this machine's home, working folder, environment and file system.
 * A missing file or folder reads as absent; any other failure (EACCES) is thrown for the reader
 * to report as that file's error.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { DirEntry, HarnessFiles } from './harness-files.ts';

function absent(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function nodeHarnessFiles(
  overrides: Partial<Pick<HarnessFiles, 'home' | 'cwd' | 'env' | 'platform'>> = {},
): HarnessFiles {
  return {
    home: overrides.home ?? homedir(),
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? process.env,
    platform: overrides.platform ?? process.platform,
    readFile(path) {
      try {
        return readFileSync(path, 'utf8');
      } catch (error) {
        if (absent(error) || (error as { code?: unknown }).code === 'EISDIR') return undefined;
        throw error;
      }
    },
    listDir(path) {
      try {
        return readdirSync(path, { withFileTypes: true }).map((entry): DirEntry => {
          if (!entry.isSymbolicLink()) {
            return { name: entry.name, directory: entry.isDirectory(), file: entry.isFile() };
          }
          try {
            const target = statSync(`${path}/${entry.name}`);
            return { name: entry.name, directory: target.isDirectory(), file: target.isFile() };
          } catch {
            return { name: entry.name, directory: false, file: false };
          }
        });
      } catch {
        return [];
      }
    },
    realpath(path) {
      try {
        return realpathSync(path);
      } catch {
        return path;
      }
    },
  };
}
