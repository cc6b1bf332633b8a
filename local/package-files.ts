/**
 * Where this capabilities' own files are, and how it was started: the one place the CLI finds
 * anything relative to itself. It runs two ways, and every path here holds for both:
 * - from a checkout: the TypeScript sources (local/…, or the checkout's run-time bundle, which
 *   keeps each source file's own `import.meta.url`), started by bin/capabilities;
 * - from the package (`npm pack`): dist/capabilities.mjs (the bin, which imports dist/cli.mjs)
 *   and dist/quickjs-worker.mjs, built from the sources with their shared chunks in
 *   dist/chunks/ (scripts/build-package.ts).
 * The root is the nearest folder above this module holding package.json (local/ or
 * dist/chunks/ sit below it): package.json and migrations/ are found the same way from either.
 *
 * `launcher()` says how an agent's entry should start this same capabilities later: the
 * installed package by absolute paths, a copy npx keeps in its temporary cache by a pinned
 * `npx` line, a checkout by its bin/capabilities (only when the person asks for that).
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Running from the TypeScript sources (a checkout), not from the built package. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The package's root: the checkout, or the installed package's folder. */
export const PACKAGE_ROOT = packageRoot();

function packageRoot(): string {
  for (let up = '../'; up.length <= 9; up += '../') {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`capabilities cannot find its package.json above ${fileURLToPath(import.meta.url)}`);
}

const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** The package's name on npm (`@capabilities-sh/cli`). */
export const PACKAGE_NAME = manifest.name;
/** This capabilities' version, as package.json says it. */
export const VERSION = manifest.version;

/** drizzle-kit's SQL migrations, read at run time by the local store. */
export const MIGRATIONS_DIR = join(PACKAGE_ROOT, 'migrations');

/** The package's CLI script (its `bin`). */
const BIN_SCRIPT = join(PACKAGE_ROOT, 'dist', 'capabilities.mjs');

/** The QuickJS sandbox's worker thread: its source in a checkout, its built file in the package. */
export const SANDBOX_WORKER = FROM_SOURCE
  ? new URL('./quickjs/worker.ts', import.meta.url)
  : pathToFileURL(join(PACKAGE_ROOT, 'dist', 'quickjs-worker.mjs'));

/** How an agent's entry starts this capabilities again, and what it is. */
export type Launcher =
  /** The installed package: the Node that runs it and its script, by absolute path. */
  | { kind: 'installed'; command: string; args: readonly string[]; script: string }
  /** A copy in npx's temporary cache: the package pinned to this version, through npx. */
  | { kind: 'npx'; command: 'npx'; args: readonly string[]; cache: string }
  /** A checkout: its bin/capabilities (which runs the Node the checkout installed). */
  | { kind: 'checkout'; command: string; args: readonly string[]; checkout: string };

/** How this capabilities is started again by an entry (see the top of this file). */
export function launcher(): Launcher {
  if (FROM_SOURCE) {
    return {
      kind: 'checkout',
      command: join(PACKAGE_ROOT, 'bin', 'capabilities'),
      args: [],
      checkout: PACKAGE_ROOT,
    };
  }
  const script = realpathSync(BIN_SCRIPT);
  if (script.split(sep).includes('_npx')) {
    return {
      kind: 'npx',
      command: 'npx',
      args: ['-y', `${PACKAGE_NAME}@${VERSION}`],
      cache: script.slice(0, script.indexOf(`${sep}_npx${sep}`) + `${sep}_npx`.length),
    };
  }
  return { kind: 'installed', command: stableNode(), args: [script], script };
}

/**
 * The command line that starts another process of this same capabilities now (a page host, a
 * check): the checkout's bin/capabilities, or this Node and this script, wherever it is.
 */
export function selfCommand(): [string, ...string[]] {
  if (FROM_SOURCE) return [join(PACKAGE_ROOT, 'bin', 'capabilities')];
  return [process.execPath, BIN_SCRIPT];
}

/**
 * The Node running now, by the path that survives its upgrades: the `node` on PATH when it is
 * this very binary (a package manager's link such as /opt/homebrew/bin/node, which stays where
 * it is when the version under it changes), else the binary's own path.
 */
export function stableNode(path: string | undefined = process.env.PATH): string {
  const running = realpathSync(process.execPath);
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '' || !dir.startsWith(sep)) continue;
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile() && realpathSync(candidate) === running) return candidate;
    } catch {
      // Not there, or not this Node: look further.
    }
  }
  return process.execPath;
}
