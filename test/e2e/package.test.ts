/**
 * The package a person installs (issue #34), journey J1 with nothing standing in but the
 * registry: `npm pack` of this checkout, served by a registry stand-in on loopback under its
 * name (test/fixtures/npm-registry-standin.ts; everything else passes on to the real registry),
 * so the README's lines run exactly as a person types them, with the real npm, in a fresh HOME
 * holding realistic harness configs (person-home.ts) and nothing beside it.
 *
 * - Node 22 (the maintained LTS line before 24, fetched from the npm registry): `npx -y
 *   @capabilities-sh/cli@<version> hub init --import` in an empty folder; `hub connect` from npx
 *   writes a pinned npx line, which an MCP client starts; then the installed command connects
 *   every harness by absolute paths, the real `claude mcp list` and `codex mcp list` list it, and
 *   an execute through the entry's own command line reaches two imported sources.
 * - Node 24: `npm install -g @capabilities-sh/cli`, then the same journey; an entry whose install
 *   went away is named by `hub doctor` with its fix, and the fix makes doctor clean.
 * - Upgrade: the tarball of the commit before the newest store migration (built here from git,
 *   as `<version>-previous`) makes a hub with a source, a secret, an `always` rule, a profile, a
 *   skill and a paused run; the new version installed over it keeps every one of them, resumes
 *   the run, whose write reaches the server exactly once, and doctor is clean; the older one
 *   installed again refuses the hub, naming both versions, and changes nothing.
 *
 * One pack, one registry, one install of the package and one of Node 22 serve every test.
 * `init --import` is run with `--yes`, the one consent a person gives at its prompt.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../local/package-files.ts';
import { npmRegistryStandIn, type RegistryStandIn } from '../fixtures/npm-registry-standin.ts';
import { REPO } from '../node/cli-process.ts';
import { textOf } from '../node/surface-fixture.ts';
import {
  IMPORTED,
  MEMORY,
  type PersonHome,
  personEnv,
  personHome,
  SERVER_NODE,
  TOKEN,
} from './person-home.ts';

const PACKAGE = '@capabilities-sh/cli';
const PREVIOUS = `${VERSION}-previous`;
/** The Node 22 the test fetches from the npm registry (a package holding only the binary). */
const NODE_22 = '22.23.5';
const NODE_24_DIR = join(REPO, 'node_modules', 'node', 'bin');
const CLAUDE = join(REPO, 'node_modules', '.bin', 'claude');
const CODEX = join(REPO, 'node_modules', '.bin', 'codex');

let work: string;
let registry: RegistryStandIn;
let node22Dir: string;
/** The machine's npm, as a script any Node runs. */
let npmCli: string;
/** The npm global prefix the package is installed into, once, for Node 22 and Node 24 alike. */
let prefix: string;
const homes: PersonHome[] = [];

type Run = SpawnSyncReturns<string>;

function run(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  input?: string,
): Run {
  const result = spawnSync(command, args, { env, cwd, encoding: 'utf8', timeout: 180_000, input });
  if (result.error) throw result.error;
  return result;
}

const said = (result: Run) => `exit ${result.status}\n${result.stdout}\n${result.stderr}`;

/** npm's settings for a person of this test: the stand-in registry, one cache, a global prefix. */
function npmSettings(globalPrefix: string): Record<string, string> {
  return {
    npm_config_registry: registry.url,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_prefix: globalPrefix,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

/** `npm …` as a person runs it, with the Node at `nodeDir`. */
const npm = (nodeDir: string, args: readonly string[], env: Record<string, string>, cwd: string) =>
  run(join(nodeDir, 'node'), [npmCli, ...args], env, cwd);

/** The tarball `npm pack` writes for the package in `dir`, into `into`. */
function pack(dir: string, into: string): string {
  const packed = run(
    'npm',
    ['pack', '--silent', '--pack-destination', into],
    { ...process.env } as Record<string, string>,
    dir,
  );
  expect(packed.status, said(packed)).toBe(0);
  return join(into, packed.stdout.trim().split('\n').at(-1) ?? '');
}

/**
 * The package as it was at the commit before the newest store migration, versioned
 * `<version>-previous`: a checkout of that commit (sharing this one's node_modules), packed.
 */
function packPrevious(into: string): string {
  const git = (...args: string[]) => run('git', args, { ...process.env } as Record<string, string>, REPO);
  const shallow = git('rev-parse', '--is-shallow-repository');
  expect(shallow.stdout.trim(), 'the upgrade test builds an earlier commit: clone the whole history').toBe(
    'false',
  );
  const migration = git(
    'log',
    '-1',
    '--format=%H',
    '--diff-filter=A',
    '--',
    'migrations/*.sql',
  ).stdout.trim();
  const tree = join(into, 'previous');
  const added = git('worktree', 'add', '--detach', tree, `${migration}^`);
  expect(added.status, said(added)).toBe(0);
  try {
    symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'));
    const version = run(
      'npm',
      ['pkg', 'set', `version=${PREVIOUS}`],
      { ...process.env } as Record<string, string>,
      tree,
    );
    expect(version.status, said(version)).toBe(0);
    return pack(tree, into);
  } finally {
    git('worktree', 'remove', '--force', tree);
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'capabilities-package-'));
  const found = run('sh', ['-c', 'command -v npm'], { ...process.env } as Record<string, string>, work);
  npmCli = realpathSync(found.stdout.trim());
  const current = pack(REPO, work);
  const previous = packPrevious(work);
  const upstream = run(
    'npm',
    ['config', 'get', 'registry'],
    { ...process.env } as Record<string, string>,
    work,
  ).stdout.trim();
  registry = await npmRegistryStandIn([previous, current], upstream);
  // Node 22 from the registry: the platform's package holds the binary alone.
  const node22 = join(work, 'node22');
  const fetched = npm(
    NODE_24_DIR,
    ['install', '--prefix', node22, `node-${process.platform}-${process.arch}@${NODE_22}`],
    personEnv(work, [NODE_24_DIR], npmSettings(join(work, 'unused'))),
    work,
  );
  expect(fetched.status, said(fetched)).toBe(0);
  node22Dir = join(node22, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin');
  // The one install, exactly as the README says it.
  prefix = join(work, 'prefix');
  const installed = npm(
    NODE_24_DIR,
    ['install', '-g', PACKAGE],
    personEnv(work, [NODE_24_DIR], npmSettings(prefix)),
    work,
  );
  expect(installed.status, said(installed)).toBe(0);
}, 600_000);

afterAll(async () => {
  await registry?.close();
  for (const { home } of homes) rmSync(home, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A person with Node at `nodeDir` and the package's global bin on PATH. */
function person(nodeDir: string, globalPrefix = prefix) {
  const place = personHome();
  homes.push(place);
  const env = personEnv(place.home, [join(globalPrefix, 'bin'), nodeDir], npmSettings(globalPrefix));
  return {
    ...place,
    env,
    capabilities: (args: readonly string[], input?: string) =>
      run('capabilities', args, env, place.home, input),
    claude: (args: readonly string[]) => run(CLAUDE, args, env, place.home),
    codex: (args: readonly string[]) => run(CODEX, args, env, place.home),
  };
}

type Person = ReturnType<typeof person>;

interface Entry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function entryIn(file: string): Entry {
  const entry = (parseJsonc(readFileSync(file, 'utf8')) as { mcpServers: Record<string, Entry> }).mcpServers
    .capabilities;
  if (!entry) throw new Error(`no capabilities entry in ${file}`);
  return entry;
}

/** An MCP client started with exactly the entry's command line, as the harness starts it. */
async function throughEntry<T>(
  p: Person,
  entry: Entry,
  body: (client: Client) => Promise<T>,
  env: Record<string, string> = p.env,
): Promise<T> {
  const client = new Client({ name: 'package-test-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...env, ...entry.env },
      cwd: p.project,
      stderr: 'pipe',
    }),
  );
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** `hub init --import` reads every harness; the plaintext token goes to the secret store alone. */
function expectImported(p: Person, init: Run): void {
  expect(init.status, said(init)).toBe(0);
  const imported = JSON.parse(init.stdout) as {
    outcome: { status: string; imported: { namespace: string; from: string[] }[] };
  };
  expect(imported.outcome.status).toBe('imported');
  expect(Object.fromEntries(imported.outcome.imported.map((s) => [s.namespace, s.from]))).toEqual(IMPORTED);
  expect(readFileSync(join(p.home, '.capabilities', '.env'), 'utf8')).toContain(TOKEN);
  expect(readFileSync(join(p.home, '.capabilities', 'hub', 'hub.db')).includes(TOKEN)).toBe(false);
}

/** `hub connect` by the installed command: entries by absolute paths, listed by the real CLIs, and an execute through one. */
async function expectConnected(p: Person, nodeDir: string, connectArgs: readonly string[]): Promise<void> {
  const connect = p.capabilities(['hub', 'connect', ...connectArgs]);
  expect(connect.status, said(connect)).toBe(0);
  expect(connect.stdout).toMatch(/Claude Code: connected/);
  const entry = entryIn(join(p.home, '.claude.json'));
  const script = realpathSync(join(prefix, 'lib', 'node_modules', PACKAGE, 'dist', 'capabilities.mjs'));
  expect(entry.command).toBe(join(nodeDir, 'node'));
  expect(entry.args).toEqual([script, 'hub', 'serve', '--stdio', '--profile', 'default']);
  // The installed package's script, never a checkout or npx's cache (the Node 24 here is the checkout's own).
  expect(script.startsWith(REPO) || script.includes('_npx')).toBe(false);
  expect(p.claude(['mcp', 'list']).stdout).toMatch(/capabilities: .*✔ Connected/);
  expect(p.codex(['mcp', 'list']).stdout).toMatch(/capabilities\s/);
  await throughEntry(p, entry, async (client) => {
    const answer = await client.callTool({
      name: 'execute',
      arguments: {
        code: 'const g = await memory.read_graph({}); const e = await everything.echo({ message: "J1" }); return { entities: g.entities.length, echo: e };',
      },
    });
    expect(textOf(answer)).toContain('Echo: J1');
    expect(answer.structuredContent).toMatchObject({
      status: 'completed',
      result: { entities: 0, echo: 'Echo: J1' },
    });
  });
}

describe('the package, installed as a person installs it', () => {
  it('on Node 22: npx in an empty folder imports, connects by a pinned npx line, then the installed command connects every harness', async () => {
    const p = person(node22Dir);
    expect(p.capabilities(['--version']).stdout.trim()).toBe(VERSION);
    const empty = join(p.home, 'empty');
    mkdirSync(empty);
    // Before any install: npx runs an installed copy when there is one, so this person has none yet.
    const bare = personEnv(p.home, [node22Dir], npmSettings(join(work, 'no-installs')));
    const npx = (args: readonly string[]) =>
      run(
        join(node22Dir, 'node'),
        [join(dirname(npmCli), 'npx-cli.js'), '-y', `${PACKAGE}@${VERSION}`, ...args],
        bare,
        empty,
      );
    expectImported(p, npx(['--json', 'hub', 'init', '--import', '--yes']));
    expect(run('sh', ['-c', 'ls -A'], p.env, empty).stdout).toBe('');

    // From npx's temporary cache, the entry names the package at this version, never the cache.
    const viaNpx = npx(['hub', 'connect', '--client', 'cursor', '--yes']);
    expect(viaNpx.status, said(viaNpx)).toBe(0);
    const npxEntry = entryIn(join(p.home, '.cursor', 'mcp.json'));
    expect(npxEntry).toMatchObject({
      command: 'npx',
      args: ['-y', `${PACKAGE}@${VERSION}`, 'hub', 'serve', '--stdio', '--profile', 'default'],
    });
    const tools = await throughEntry(
      p,
      npxEntry,
      async (client) => (await client.listTools()).tools.map((t) => t.name),
      bare,
    );
    expect(tools.sort()).toEqual(['describe', 'execute', 'search']);

    // Cursor's entry is the npx line now: replacing it is what --yes consents to.
    await expectConnected(p, node22Dir, ['--yes']);
  }, 300_000);

  it('on Node 24: npm install -g, init --import, connect; doctor names an entry whose install went away, and its fix', async () => {
    const p = person(NODE_24_DIR);
    expect(p.capabilities(['--version']).stdout.trim()).toBe(VERSION);
    expectImported(p, p.capabilities(['--json', 'hub', 'init', '--import', '--yes']));
    // Exactly as the README prints it: nothing to replace, nothing to ask.
    await expectConnected(p, NODE_24_DIR, []);
    expect(p.capabilities(['hub', 'doctor']).status).toBe(0);

    // Cursor connected from a copy of the install that then goes away.
    const moved = join(work, 'moved-prefix');
    cpSync(prefix, moved, { recursive: true, verbatimSymlinks: true });
    const fromCopy = run(
      join(NODE_24_DIR, 'node'),
      [
        join(moved, 'lib', 'node_modules', PACKAGE, 'dist', 'capabilities.mjs'),
        'hub',
        'connect',
        '--client',
        'cursor',
        '--yes',
      ],
      p.env,
      p.home,
    );
    expect(fromCopy.status, said(fromCopy)).toBe(0);
    rmSync(moved, { recursive: true, force: true });
    const doctor = p.capabilities(['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(
      /FAIL {2}Cursor entry: .*mcp\.json: the script it runs, .*moved-prefix.*, no longer exists, so Cursor cannot start the hub\n\s+fix: capabilities hub connect --client cursor/,
    );
    expect(doctor.stdout).toMatch(/ok {4}Claude Code entry: runs /);
    const fixed = p.capabilities(['hub', 'connect', '--client', 'cursor', '--yes']);
    expect(fixed.status, said(fixed)).toBe(0);
    const clean = p.capabilities(['hub', 'doctor']);
    expect(clean.status, said(clean)).toBe(0);
  }, 300_000);

  it('upgrades keep everything and resume a paused run once; the older version refuses the newer hub and changes nothing', async () => {
    const upgradePrefix = join(work, 'upgrade-prefix');
    const p = person(NODE_24_DIR, upgradePrefix);
    const install = (spec: string) => {
      const installed = npm(NODE_24_DIR, ['install', '-g', spec], p.env, p.home);
      expect(installed.status, said(installed)).toBe(0);
    };
    install(`${PACKAGE}@${PREVIOUS}`);
    expect(p.capabilities(['--version']).stdout.trim()).toBe(PREVIOUS);
    const ok = (args: readonly string[], input?: string) => {
      const result = p.capabilities(args, input);
      expect(result.status, `${args.join(' ')}: ${said(result)}`).toBe(0);
      return result;
    };
    const graph = join(p.home, 'graph.jsonl');
    ok(['hub', 'init']);
    ok([
      'hub',
      'add',
      '--yes',
      '--namespace',
      'notes',
      '--env',
      `MEMORY_FILE_PATH=${graph}`,
      '--',
      SERVER_NODE,
      MEMORY,
    ]);
    ok(['hub', 'auth', 'notes', '--env', 'NOTES_TOKEN'], 'tk_notes_upgrade_0123456789\n');
    ok(['hub', 'profiles', 'create', 'reader', '--namespaces', 'notes']);
    const skill = join(p.home, 'skill');
    mkdirSync(skill);
    run(
      'sh',
      [
        '-c',
        `printf -- '---\\nname: release-notes\\ndescription: Write release notes for customers.\\n---\\nSay what changed.\\n' > SKILL.md`,
      ],
      p.env,
      skill,
    );
    ok(['hub', 'skills', 'add', skill, '--yes']);
    const create = (name: string) =>
      `return await notes.create_entities({ entities: [{ name: ${JSON.stringify(name)}, entityType: "note", observations: [] }] })`;
    const first = JSON.parse(ok(['--json', 'hub', 'exec', create('first')]).stdout) as {
      runId: string;
      status: string;
    };
    expect(first.status).toBe('awaiting_approval');
    ok(['hub', 'approve', first.runId, '--choice', 'always']);
    const paused = JSON.parse(
      ok([
        '--json',
        'hub',
        'exec',
        'return await notes.add_observations({ observations: [{ entityName: "first", contents: ["kept across the upgrade"] }] })',
      ]).stdout,
    ) as { runId: string; status: string };
    expect(paused.status).toBe('awaiting_approval');

    install(PACKAGE);
    expect(p.capabilities(['--version']).stdout.trim()).toBe(VERSION);
    const resumed = JSON.parse(ok(['--json', 'hub', 'approve', paused.runId, '--choice', 'once']).stdout) as {
      status: string;
    };
    expect(resumed.status).toBe('completed');
    const observed = readFileSync(graph, 'utf8').split('kept across the upgrade').length - 1;
    expect(observed).toBe(1);
    expect(ok(['hub', 'list']).stdout).toContain('notes');
    expect(ok(['hub', 'connections', 'notes']).stdout).toContain('NOTES_TOKEN');
    expect(ok(['hub', 'profiles', 'list']).stdout).toContain('reader');
    expect(ok(['hub', 'skills', 'list']).stdout).toContain('release-notes');
    expect(ok(['hub', 'runs']).stdout).toContain(first.runId);
    // The `always` given before the upgrade still holds: the next create runs without asking.
    expect(
      (JSON.parse(ok(['--json', 'hub', 'exec', create('second')]).stdout) as { status: string }).status,
    ).toBe('completed');
    expect(ok(['hub', 'doctor']).stdout).toContain('Healthy.');
    expect(ok(['hub', 'search', 'release', 'notes']).stdout).toContain('release-notes');

    install(`${PACKAGE}@${PREVIOUS}`);
    const files = ['hub.db', 'hub.json', 'http-token'].map((name) =>
      join(p.home, '.capabilities', 'hub', name),
    );
    const before = files.map((file) => readFileSync(file));
    const refused = p.capabilities(['hub', 'list']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`by capabilities ${VERSION}; this is capabilities ${PREVIOUS}`);
    expect(files.map((file) => readFileSync(file))).toEqual(before);
    expect(existsSync(graph)).toBe(true);
  }, 300_000);
});
