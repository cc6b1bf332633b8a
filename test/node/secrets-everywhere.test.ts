/**
 * Every secret the hub holds is scrubbed from everything that leaves it (issue: security,
 * finding 2; invariant I1), written as the attacks that broke it: a hostile stdio server
 * (test/fixtures/servers/leaky-server.ts) that puts its token in its stderr, its declarations
 * and its name, seen through another connection's error, `search`, `describe`, the guest's
 * lookups, a pending call's summary and the store's own file; and a filesystem source rooted at
 * the hub's home, which could read the secrets file and the HTTP token.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../engine/engine.ts';
import { SCRUBBED } from '../../engine/secrets/scrub.ts';
import type { SourceDraft } from '../../engine/sources/sources.ts';
import { engineSurfaceDeps } from '../../engine/surface/engine-deps.ts';
import { cryptoRandom, systemClock } from '../../engine/system.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { EnvFileSecretStore } from '../../local/secret-store.ts';
import { localConnector } from '../../local/sources/stdio-launcher.ts';
import { localWording } from '../../local/wording.ts';
import { BIN, cli, cliEnv, hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const LEAKY = [
  NODE,
  '--disable-warning=ExperimentalWarning',
  join(REPO, 'test', 'fixtures', 'servers', 'leaky-server.ts'),
];
const PERSONAL = 'lk_personal_7f3a9c2e41b8d6f0a5e3';
const WORK = 'lk_work_0b9d4e7a2c6f1e8d3a5b';
const HTTP_TOKEN = 'http_token_5e2b8c1f9a7d3e6b0c4f8a2d';

const sandbox = new QuickJsSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

let dir: string;
let remove: () => void;
let local: LocalStore;
let engine: Engine;
const connector = () => localConnector({ version: 'test', connectTimeoutMs: 20_000 });
let connectors: ReturnType<typeof connector>[] = [];

beforeEach(() => {
  ({ home: dir, remove } = hubHome());
  local = openLocalStore(join(dir, 'hub.db'), Date.now());
  const sources = connector();
  connectors = [sources];
  engine = createEngine({
    wording: localWording,
    store: local.store,
    connector: sources,
    secrets: new EnvFileSecretStore(join(dir, '.env')),
    clock: systemClock,
    random: cryptoRandom,
    sandbox: () => sandbox,
    ownSecrets: () => [HTTP_TOKEN],
  });
});
afterEach(async () => {
  await Promise.all(connectors.map((c) => c.close()));
  local.close();
  remove();
});

/** Adds the leaky server, reviewed as proposed, and gives it two connections. */
async function addLeaky(): Promise<void> {
  const draft: SourceDraft = { kind: 'mcp-stdio', command: LEAKY, consented: true };
  const inspection = await engine.sources.inspect(draft, 'leaky');
  engine.sources.addSource(
    inspection,
    new Map(inspection.review.map((item) => [item.address, item.proposed])),
  );
  await engine.sources.saveCredential('leaky', 'personal', { kind: 'env', variable: 'API_TOKEN' }, PERSONAL);
  await engine.sources.saveCredential('leaky', 'work', { kind: 'env', variable: 'API_TOKEN' }, WORK);
}

/** Every text the store's file holds (the database and its write-ahead log). */
function storeBytes(): string {
  const files = ['hub.db', 'hub.db-wal'].map((name) => join(dir, name)).filter(existsSync);
  return files.map((file) => readFileSync(file, 'latin1')).join('\n');
}

function expectNoSecret(text: string): void {
  for (const secret of [PERSONAL, WORK, HTTP_TOKEN]) expect(text).not.toContain(secret);
}

describe('attack: one connection’s secret through another connection’s error', () => {
  it('the stderr tail quoting the personal token is scrubbed from the work call’s error, its journal and the run', async () => {
    await addLeaky();
    const runs = await engine.runs();
    const done = await runs.execute(`
      await leaky.whoami({}, { connection: "personal" });
      try { await leaky.crash({}, { connection: "work" }); return "no error"; }
      catch (e) { return e.message; }
    `);
    expect(done.status).toBe('completed');
    const message = String(done.result);
    expect(message).toMatch(/exited before it answered/);
    expect(message).toContain(SCRUBBED);
    expectNoSecret(JSON.stringify(done));
    expectNoSecret(JSON.stringify(local.store.listJournal(done.runId)));
    // The model is told the namespace, never the command line (finding 6).
    expect(message).toContain('"leaky"');
    expect(message).not.toContain('leaky-server.ts');
    expectNoSecret(storeBytes());
  });
});

describe('attack: a token the server writes into its declarations after a refresh', () => {
  it('is stored scrubbed, and never reaches search, describe, the guest’s lookups or a pending summary', async () => {
    await addLeaky();
    const refreshed = await engine.sources.refresh('leaky');
    expect(refreshed.notices).toEqual([
      expect.stringMatching(/^left out tool "leak_\[secret\]": its name carries a secret/),
    ]);
    const manifest = local.store.getManifest('leaky');
    expect(manifest?.tools.map((tool) => tool.name).sort()).toEqual(['crash', 'post', 'whoami']);
    expect(manifest?.instructions).toBe(`Authenticate with ${SCRUBBED} when asked.`);
    expect(JSON.stringify(manifest)).toContain(`sig_${SCRUBBED}`);
    expectNoSecret(JSON.stringify(manifest));

    const surface = engineSurfaceDeps(engine, { version: 'test' });
    const searched = await surface.search({ query: 'post a message signed', limit: 8 });
    expect(searched).toContain('leaky.post');
    expectNoSecret(searched);
    const described = await surface.describe(['leaky']);
    expect(described).toContain(SCRUBBED);
    expectNoSecret(described);

    const asked = await surface.execute(`
      const found = await hub.search("post a message signed");
      const types = await hub.describe("leaky.post");
      console.log(found, types);
      return await leaky.post({ text: "hi" });
    `);
    expect(asked.status).toBe('awaiting_approval');
    expect(asked.pending?.[0]?.summary).toBe(`Post a message signed with ${SCRUBBED}.`);
    expectNoSecret(JSON.stringify(asked));
    expectNoSecret(JSON.stringify(local.store.listPendingInputs(asked.runId)));
    expectNoSecret(storeBytes());
  });
});

describe('attack: a filesystem source rooted at the hub’s home', () => {
  let home: string;
  let removeHome: () => void;
  beforeAll(() => {
    ({ home, remove: removeHome } = hubHome());
  });
  afterAll(() => removeHome());

  const FILESYSTEM = join(
    REPO,
    'node_modules',
    '@modelcontextprotocol',
    'server-filesystem',
    'dist',
    'index.js',
  );
  const ECHO = join(REPO, 'test', 'fixtures', 'servers', 'echo-secret-server.ts');
  const VALUE = 'sk_echo_a8f3e1c9d7b2046e5f1a';

  // Fifteen CLI processes of about 2 s each: a loaded 2-core machine needs more than the default 30 s.
  it('is added only with explicit consent, and what it reads of the home comes back scrubbed', () => {
    const refused = cli(home, ['hub', 'add', '--yes', '--namespace', 'files', '--', NODE, FILESYSTEM, home]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`reaches this hub's own home, ${home}`);
    expect(refused.stderr).toContain('--allow-home');
    expect(cli(home, ['--json', 'hub', 'list']).stdout).toContain('"sources": []');

    const added = cli(home, [
      'hub',
      'add',
      '--yes',
      '--allow-home',
      '--namespace',
      'files',
      '--',
      NODE,
      FILESYSTEM,
      home,
    ]);
    expect(added.status, added.stderr).toBe(0);
    const echo = cli(home, ['hub', 'add', '--yes', '--namespace', 'echo', '--', NODE, ECHO]);
    expect(echo.status, echo.stderr).toBe(0);
    const auth = spawnSync(BIN, ['hub', 'auth', 'echo', '--env', 'API_TOKEN'], {
      env: cliEnv(home),
      input: VALUE,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(auth.status, auth.stderr).toBe(0);

    const token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
    for (const file of [join(home, '.env'), join(home, 'hub', 'http-token')]) {
      for (const json of [[], ['--json']]) {
        const read = cli(home, [
          ...json,
          'hub',
          'call',
          'files.read_text_file',
          JSON.stringify({ path: file }),
        ]);
        expect(read.status, read.stderr).toBe(0);
        expect(read.stdout).toContain(SCRUBBED);
        expect(read.stdout + read.stderr).not.toContain(VALUE);
        expect(read.stdout + read.stderr).not.toContain(token);
      }
    }
    const runs = cli(home, ['--json', 'hub', 'runs']);
    for (const { id } of JSON.parse(runs.stdout).runs as { id: string }[]) {
      const shown = cli(home, ['--json', 'hub', 'runs', 'show', id]);
      expect(shown.stdout).not.toContain(VALUE);
      expect(shown.stdout).not.toContain(token);
    }
  }, 90_000);
});

describe('attack: the scrubber as an oracle for a short secret', () => {
  it('a secret short enough to guess is refused at auth, and nothing is stored', async () => {
    await addLeaky();
    await expect(
      engine.sources.saveCredential('leaky', 'pin', { kind: 'env', variable: 'API_TOKEN' }, '4821'),
    ).rejects.toThrow(/shorter than 8 characters/);
    expect(local.store.getConnection('leaky', 'pin')).toBeUndefined();
    const runs = await engine.runs();
    // What the attack would have been: every four-digit guess returned, the one scrubbed is the PIN.
    const done = await runs.execute(
      'return Array.from({ length: 10000 }, (_, i) => String(i).padStart(4, "0"))',
    );
    expect(JSON.stringify(done.result)).not.toContain(SCRUBBED);
  });
});

describe('attack: a token declared before the hub knew it was a secret', () => {
  it('is scrubbed from what is stored as soon as a person enters it', async () => {
    const LATE = 'lk_late_5c1e9a7f3b2d8e4a6c0f';
    // Given to the server as a plain setting first, so its declarations carry it from the start.
    const draft: SourceDraft = {
      kind: 'mcp-stdio',
      command: LEAKY,
      env: { API_TOKEN: LATE },
      consented: true,
    };
    const inspection = await engine.sources.inspect(draft, 'leaky');
    engine.sources.addSource(
      inspection,
      new Map(inspection.review.map((item) => [item.address, item.proposed])),
    );
    expect(JSON.stringify(local.store.getManifest('leaky'))).toContain(LATE);
    expect(engine.lookup.search({ query: 'post a message signed', limit: 8 })).toContain(LATE);

    await engine.sources.saveCredential('leaky', 'work', { kind: 'env', variable: 'API_TOKEN' }, LATE);
    const manifest = local.store.getManifest('leaky');
    expect(JSON.stringify(manifest)).not.toContain(LATE);
    expect(manifest?.tools.map((tool) => tool.name).sort()).toEqual(['crash', 'post', 'whoami']);
    expect(JSON.stringify(local.store.listReviews('leaky'))).not.toContain(LATE);
    expect(engine.lookup.search({ query: 'post a message signed', limit: 8 })).not.toContain(LATE);
    expect(engine.lookup.describe(['leaky'])).not.toContain(LATE);
  });
});
