/**
 * What bin/capabilities runs: `--version` answered from package.json alone, every other command
 * by local/cli/main.ts, loaded from its bundle when that is fresh (local/cli/bundle.ts) and from
 * source otherwise. Imports only Node and the bundle module, so it costs next to nothing itself.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle } from './bundle.ts';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What commander prints for it (main.ts declares the same option), without loading commander.
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${version}\n`);
} else {
  const bundle = await freshBundle(fileURLToPath(new URL('../../', import.meta.url)));
  if (bundle) await import(pathToFileURL(bundle).href);
  else {
    // From source: first the hook that loads the dashboard's .tsx pages (see the file).
    await import('../tsx-hooks.ts');
    await import('./main.ts');
  }
}
