/**
 * The CLI's bundle (local/cli/bundle.ts) is never stale: built on the first run, reused while
 * nothing that went into it changed, rebuilt when a source changes (in size or in time), and
 * skipped (run from source) when it cannot be built or another process is building it. Proven on
 * a small checkout in a temp folder whose local/cli/main.ts prints what it imports, each bundle
 * run by the real Node.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freshBundle } from '../../local/cli/bundle.ts';
import { hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  delete process.env.CAPABILITIES_FROM_SOURCE;
});

/**
 * A checkout with local/cli/main.ts printing `message` (from message.ts) and its own URL. Each
 * write is dated a minute later than the last, all in the past: a file changed as the build reads
 * it counts as stale, which a test writing and building in the same millisecond would trip.
 */
function checkout(message: string): { root: string; setMessage(text: string): void } {
  const { home: root, remove } = hubHome();
  cleanups.push(remove);
  mkdirSync(join(root, 'local', 'cli'), { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  let at = Date.now() - 60 * 60_000;
  const dated = (path: string, text: string) => {
    writeFileSync(path, text);
    at += 60_000;
    utimesSync(path, new Date(at), new Date(at));
  };
  dated(
    join(root, 'local', 'cli', 'main.ts'),
    "import { message } from './message.ts';\nconsole.log(message, import.meta.url);\n",
  );
  const setMessage = (text: string) =>
    dated(join(root, 'local', 'cli', 'message.ts'), `export const message: string = '${text}';\n`);
  setMessage(message);
  return { root, setMessage };
}

function runBundle(file: string): string {
  const ran = spawnSync(NODE, [file], { encoding: 'utf8', timeout: 30_000 });
  expect(ran.stderr).toBe('');
  return ran.stdout.trim();
}

describe('the CLI bundle', () => {
  it('is built on first use, reused while its inputs are unchanged, rebuilt when one changes', async () => {
    const { root, setMessage } = checkout('one');
    const first = await freshBundle(root);
    expect(first).toBeDefined();
    const file = first as string;
    // Each of our files keeps its own import.meta.url (package.json, migrations/ are found from it).
    const mainUrl = pathToFileURL(join(root, 'local', 'cli', 'main.ts')).href;
    expect(runBundle(file)).toBe(`one ${mainUrl}`);

    const manifest = join(file, '..', 'inputs.json');
    const built = statSync(manifest).mtimeMs;
    expect(await freshBundle(root)).toBe(file);
    expect(statSync(manifest).mtimeMs).toBe(built);

    // An edit that changes the size.
    setMessage('two, longer');
    expect(await freshBundle(root)).toBe(file);
    expect(runBundle(file)).toBe(`two, longer ${mainUrl}`);

    // An edit of the same size: only the modification time tells.
    setMessage('six, longer');
    expect(await freshBundle(root)).toBe(file);
    expect(runBundle(file)).toBe(`six, longer ${mainUrl}`);
  });

  it('is skipped when a source does not build, when another process is building, or when asked', async () => {
    const { root, setMessage } = checkout('one');
    const file = await freshBundle(root);
    expect(file).toBeDefined();

    // A source that does not parse: run from source, where Node reports it; the old bundle is not used.
    writeFileSync(join(root, 'local', 'cli', 'message.ts'), 'export const = ;\n');
    expect(await freshBundle(root)).toBeUndefined();
    expect(await freshBundle(root)).toBeUndefined();

    // Another process holds the build lock: run from source rather than wait.
    setMessage('two');
    const lock = join(file as string, '..', 'build.lock');
    writeFileSync(lock, '');
    expect(await freshBundle(root)).toBeUndefined();
    // A lock left by a process that died long ago is taken over.
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    expect(await freshBundle(root)).toBe(file);
    expect(runBundle(file as string)).toMatch(/^two /);

    process.env.CAPABILITIES_FROM_SOURCE = '1';
    expect(await freshBundle(root)).toBeUndefined();
    expect(readFileSync(file as string, 'utf8')).toContain('var message = "two"');
  });
});
