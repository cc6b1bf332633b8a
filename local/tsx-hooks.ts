/**
 * Lets the CLI load the dashboard's pages (`dashboard/*.tsx`, Hono JSX) under Node, whose type
 * stripping takes `.ts` but not JSX: a module hook turns each `.tsx` file into JavaScript with
 * sucrase (the same type stripper the sandbox uses), JSX to `hono/jsx`'s automatic runtime. The
 * Worker's bundler and vitest compile JSX themselves and never load this file.
 *
 * Imported first by local/cli/main.ts, before anything can import a page.
 */
import { readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// Loaded with the first page, not with every command: most never render one.
const require = createRequire(import.meta.url);
let transform: typeof import('sucrase').transform | undefined;

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith('file:') || !url.endsWith('.tsx')) return nextLoad(url, context);
    const path = fileURLToPath(url);
    transform ??= (require('sucrase') as typeof import('sucrase')).transform;
    const { code } = transform(readFileSync(path, 'utf8'), {
      transforms: ['typescript', 'jsx'],
      jsxRuntime: 'automatic',
      jsxImportSource: 'hono/jsx',
      production: true,
      filePath: path,
    });
    return { format: 'module', source: code, shortCircuit: true };
  },
});
