/**
 * `npm run build` (and `npm pack`, through `prepack`): the package's JavaScript, built from the
 * sources with esbuild into dist/:
 * - dist/cli.mjs, the CLI (local/cli/main.ts with the engine, the dashboard's pages and the
 *   packages they use), with what a command loads on demand in chunks of its own (dist/chunks/);
 * - dist/quickjs-worker.mjs, the QuickJS sandbox's worker thread (local/quickjs/worker.ts);
 * - dist/capabilities.mjs, the package's `bin`: it turns on Node's compile cache before anything
 *   else is compiled (a third of each start), answers `--version` from package.json alone, and
 *   imports dist/cli.mjs.
 * Nothing is compiled or bundled when the package runs. Left out of the bundles, and so the
 * package's only runtime dependencies: better-sqlite3 (its native addon loads from its own
 * folder), QuickJS's WebAssembly build (it loads its .wasm beside itself), `open` (it runs its
 * own xdg-open) and jsonc-parser (its UMD build requires its parts by paths a bundler cannot
 * follow).
 *
 * Targets the oldest Node the package supports (package.json `engines`), so a newer syntax
 * fails the build rather than a person's start.
 */
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** `require` for the CommonJS packages bundled. */
const BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url);',
].join('\n');

/** The bin: the compile cache first (a module's static imports compile before its code runs). */
const BIN = `#!/usr/bin/env node
// capabilities: the package's command (scripts/build-package.ts writes this file).
import * as module from 'node:module';
import { readFileSync } from 'node:fs';
try {
  module.enableCompileCache?.();
} catch {}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(\`\${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\\n\`);
} else {
  await import('./cli.mjs');
}
`;

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
  entryPoints: {
    cli: join(ROOT, 'local', 'cli', 'main.ts'),
    'quickjs-worker': join(ROOT, 'local', 'quickjs', 'worker.ts'),
  },
  outdir: DIST,
  outExtension: { '.js': '.mjs' },
  // What a command imports on demand (the dashboard's pages, OpenAPI, the prompts) is a chunk of
  // its own, loaded when used: `serve --stdio` compiles only what it runs.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: BANNER },
});
writeFileSync(join(DIST, 'capabilities.mjs'), BIN);
chmodSync(join(DIST, 'capabilities.mjs'), 0o755);

const size = (file: string) => `${(statSync(join(DIST, file)).size / 1024 / 1024).toFixed(1)} MB`;
const chunks = readdirSync(join(DIST, 'chunks')).filter((name) => name.endsWith('.mjs')).length;
console.log(
  `dist/cli.mjs ${size('cli.mjs')}, dist/quickjs-worker.mjs ${size('quickjs-worker.mjs')}, ${chunks} chunks (${TARGET}; external: ${EXTERNAL.join(', ')})`,
);
