/**
 * `npm run build` (and `npm pack`, through `prepack`): the package's JavaScript, built from the
 * sources with esbuild into dist/:
 * - dist/capabilities.mjs, the CLI (local/cli/main.ts with the engine, the dashboard's pages and
 *   the packages they use), the package's `bin`;
 * - dist/quickjs-worker.mjs, the QuickJS sandbox's worker thread (local/quickjs/worker.ts).
 * Nothing is compiled or bundled when the package runs. Left out of the bundles, and so the
 * package's only runtime dependencies: better-sqlite3 (its native addon loads from its own
 * folder), QuickJS's WebAssembly build (it loads its .wasm beside itself), `open` (it runs its
 * own xdg-open) and jsonc-parser (its UMD build requires its parts by paths a bundler cannot
 * follow). Both files start Node's compile cache, which saves about a third of each start.
 *
 * Targets the oldest Node the package supports (package.json `engines`), so a newer syntax
 * fails the build rather than a person's start.
 */
import { chmodSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');

/** The packages the bundles leave out: package.json's `dependencies`, every one of them. */
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};
const EXTERNAL = Object.keys(pkg.dependencies);
/** `>=22.12`, say, as esbuild's target `node22.12`. */
const TARGET = `node${/(\d+(\.\d+)*)/.exec(pkg.engines.node)?.[1] ?? '22'}`;

/** Node's compile cache (no-op where it is off), and `require` for the CommonJS packages bundled. */
const BANNER = [
  "import { createRequire as __createRequire, enableCompileCache as __enableCompileCache } from 'node:module';",
  'try { __enableCompileCache?.(); } catch {}',
  'const require = __createRequire(import.meta.url);',
].join('\n');

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: TARGET,
  external: EXTERNAL,
  jsx: 'automatic',
  jsxImportSource: 'hono/jsx',
  legalComments: 'linked',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  absWorkingDir: ROOT,
} as const;

rmSync(DIST, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { capabilities: join(ROOT, 'local', 'cli', 'main.ts') },
  outdir: DIST,
  outExtension: { '.js': '.mjs' },
  banner: { js: `#!/usr/bin/env node\n${BANNER}` },
});
await build({
  ...common,
  entryPoints: { 'quickjs-worker': join(ROOT, 'local', 'quickjs', 'worker.ts') },
  outdir: DIST,
  outExtension: { '.js': '.mjs' },
  banner: { js: BANNER },
});
chmodSync(join(DIST, 'capabilities.mjs'), 0o755);

const size = (file: string) => `${(statSync(join(DIST, file)).size / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `dist/capabilities.mjs ${size('capabilities.mjs')}, dist/quickjs-worker.mjs ${size('quickjs-worker.mjs')} (${TARGET}; external: ${EXTERNAL.join(', ')})`,
);
