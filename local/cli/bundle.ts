/**
 * The CLI as one file: an esbuild bundle of local/cli/main.ts (with the engine, the dashboard's
 * pages and the packages they use), which a process loads in a few milliseconds where the ~1,000
 * source modules take the better part of a second to resolve and compile (issue #19: a harness
 * starts `hub serve --stdio` for every session).
 *
 * Built on the first run after a change, never by hand: `freshBundle` returns the bundle only
 * when every file that went into it (esbuild's metafile: our sources, package.json, the
 * packages' files, this file) still has the size and modification time it had when read; else it
 * builds a new one, and a process that cannot (esbuild absent, as after `npm install
 * --omit=dev`; a source that does not parse; another process building right now) runs from
 * source instead, so an edited .ts file is always what runs. `CAPABILITIES_FROM_SOURCE=1` skips
 * the bundle (for a profile of the real modules).
 *
 * The bundle lives in node_modules/.cache/capabilities-cli/<checkout>/, beside Node's compile
 * cache, so the packages it leaves out (better-sqlite3, whose native addon loads from its own
 * folder; QuickJS's wasm, loaded by the sandbox's worker thread, which runs from source; `open`,
 * which looks for its own xdg-open; jsonc-parser, whose UMD build requires its parts by paths a
 * bundler cannot follow) resolve from the checkout's node_modules as before. Each of
 * our files keeps its own `import.meta.url` (package.json, migrations/, the worker, bin/).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bumped when the build's options change, so every older bundle is rebuilt. */
const FORMAT = 2;
/** A build lock older than this was left by a process that died building. */
const STALE_LOCK_MS = 120_000;

/** One file that went into the bundle, as it was when esbuild read it. */
type Input = [path: string, size: number, mtimeMs: number];

interface Manifest {
  format: number;
  node: string;
  inputs: Input[];
}

/** The bundle to import for the checkout at `root`, built now if stale; undefined: run from source. */
export async function freshBundle(root: string): Promise<string | undefined> {
  if (process.env.CAPABILITIES_FROM_SOURCE === '1') return undefined;
  const dir = bundleDir(root);
  const file = join(dir, 'main.mjs');
  if (isFresh(join(dir, 'inputs.json'))) return file;
  return (await build(root, dir)) ? file : undefined;
}

function bundleDir(root: string): string {
  const real = realpathSync(root);
  const key = createHash('sha256').update(real).digest('hex').slice(0, 16);
  return join(real, 'node_modules', '.cache', 'capabilities-cli', key);
}

function isFresh(manifestFile: string): boolean {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  } catch {
    return false;
  }
  if (manifest.format !== FORMAT || manifest.node !== process.version) return false;
  for (const [path, size, mtimeMs] of manifest.inputs) {
    const now = statSync(path, { throwIfNoEntry: false });
    if (!now || now.size !== size || now.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/** Builds the bundle into `dir`; false when it could not (the caller runs from source). */
async function build(root: string, dir: string): Promise<boolean> {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, 'build.lock');
  if (!takeLock(lock)) return false;
  try {
    let esbuild: typeof import('esbuild');
    try {
      esbuild = await import('esbuild');
    } catch {
      return false;
    }
    const started = Date.now();
    const real = realpathSync(root);
    const ours = new RegExp(`^${regexpText(real)}/(local|engine|dashboard)/.*\\.tsx?$`);
    const temp = join(dir, `main.${process.pid}.mjs`);
    const result = await esbuild
      .build({
        absWorkingDir: real,
        entryPoints: [join(real, 'local', 'cli', 'main.ts')],
        outfile: temp,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node24',
        metafile: true,
        logLevel: 'silent',
        external: ['better-sqlite3', '@jitl/*', 'open', 'jsonc-parser'],
        jsx: 'automatic',
        jsxImportSource: 'hono/jsx',
        // Packages written as CommonJS call require() for Node's builtins.
        banner: {
          js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
        },
        plugins: [
          {
            name: 'own-import-meta-url',
            setup(builder) {
              builder.onLoad({ filter: ours }, ({ path }) => ({
                contents: readFileSync(path, 'utf8').replaceAll(
                  'import.meta.url',
                  JSON.stringify(pathToFileURL(path).href),
                ),
                loader: path.endsWith('.tsx') ? 'tsx' : 'ts',
              }));
            },
          },
        ],
      })
      .catch(() => undefined);
    if (!result) {
      rmSync(temp, { force: true });
      return false;
    }
    const inputs: Input[] = [];
    for (const path of [
      ...Object.keys(result.metafile.inputs).map((input) => join(real, input)),
      fileURLToPath(import.meta.url),
    ]) {
      const stat = statSync(path, { throwIfNoEntry: false });
      // Changed while the build read it: the bundle may hold the old text, so it counts as stale.
      inputs.push([path, stat?.size ?? -1, stat && stat.mtimeMs < started - 1 ? stat.mtimeMs : -1]);
    }
    renameSync(temp, join(dir, 'main.mjs'));
    const manifest: Manifest = { format: FORMAT, node: process.version, inputs };
    const manifestTemp = join(dir, `inputs.${process.pid}.json`);
    writeFileSync(manifestTemp, JSON.stringify(manifest));
    renameSync(manifestTemp, join(dir, 'inputs.json'));
    return true;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the build lock, or says another process holds it (one that died long ago does not). */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      return true;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs < STALE_LOCK_MS) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

function regexpText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
