/**
 * I8 (test/invariants/i8-configuration.suite.ts) on a local hub, "The model cannot change
 * configuration": no MCP path adds, changes or removes a source, connection, policy, profile or
 * skill, reads the hub's files or tokens, or reaches the CLI. The suite holds the attacks both
 * hosts face; this runner adds the resources, a direct profile and arguments naming files.
 *
 * One local hub, configured through the CLI as a person would: the counting board, its reviewed
 * rules, a skill folder with a file beside it that is not the skill's, a direct-mode profile.
 * Official MCP clients reach it over stdio (`hub serve --stdio`, the default and the direct
 * profile) and HTTP (`hub serve --http`). After every attack the configuration, as the CLI and
 * the store show it (`--json hub list`, `hub profiles list`, `hub skills list`, `hub connections`,
 * the policy rules and reviews) and the hub's own files (hub.json, http-token), is byte-identical
 * to before, and no answer holds the HTTP token, the hub's id or the file beside the skill:
 *
 * | Way in            | Attack                                                                          | Held                          |
 * | ----------------- | ------------------------------------------------------------------------------- | ----------------------------- |
 * | the suite's       | tools and prompts, the guest's globals and `hub`, `hub.*` that configure, `process`, imports, the CLI's module, `Function`, `fetch` of the token file and /mcp, over stdio and HTTP | as the suite says |
 * | MCP, code mode    | list resources and templates over stdio and HTTP                                | skill:// only                 |
 * | MCP, direct mode  | a direct profile's tools                                                        | the board's tools, nothing of the hub |
 * | MCP search/describe/resume | arguments naming the hub's files (`../hub/http-token`, absolute paths, file://) | nothing read |
 * | MCP resources     | a skill read outside its folder: `skill://../`, encoded, a path under the skill  | refused; nothing read        |
 *
 * Also held by: test/node/surface-stdio.test.ts, test/node/surface-http.test.ts and
 * test/node/surface-empty-hub.test.ts (the three tools), test/node/skills-surface.test.ts (skills as
 * resources), test/node/profiles-visibility.test.ts (what a profile shows), test/node/sandbox.test.ts
 * and test/node/sandbox-quickjs.test.ts (the guest's globals), test/architecture.test.ts (the CLI and
 * the pages reach the store only through the engine), test/person-input.test.ts (decisions; I2),
 * test/invariants/i2-decisions.test.ts (the guest's `hub` offers search, describe and read only), and
 * test/invariants/i8-configuration.workers.test.ts (the hosted runner).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { addBoard, cli, hubHome, REPO, startServe } from '../node/cli-process.ts';
import { type SkillFolders, skillFolders, skillMd } from '../node/skill-folders.ts';
import { httpClient, stdioClient, textOf } from '../node/surface-fixture.ts';
import { describeConfiguration } from './i8-configuration.suite.ts';

let home: string;
let removeHome: () => void;
let folders: SkillFolders;
/** The file beside the skill's folder, which no MCP read may reach. */
const BESIDE = 'beside-the-skill-0f6c1d2e';
let stdio: Client;
let http: Client;
let direct: Client;
let stopServe: () => Promise<unknown>;
let baseline: string;
/** What no answer may hold: the HTTP token, the hub's id, the file beside the skill. */
let secrets: string[];

/** Everything the CLI and the store say the configuration is, and the hub's own files. */
function configuration(): string {
  const json = (args: string[]) => {
    const result = cli(home, ['--json', 'hub', ...args]);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const paths = homePaths({ CAPABILITIES_HOME: home });
  const hub = openLocalHub(paths, Date.now());
  let store: string;
  try {
    store = JSON.stringify({
      sources: hub.store.listSources(),
      connections: hub.store.listConnections(),
      rules: hub.store.listPolicyRules(),
      reviews: hub.store.listReviews('board'),
      profiles: hub.store.listProfiles(),
      skills: hub.store.listSkills(),
    });
  } finally {
    hub.close();
  }
  return [
    json(['list']),
    json(['profiles', 'list']),
    json(['profiles', 'show', 'work']),
    json(['skills', 'list']),
    json(['connections', 'board']),
    store,
    readFileSync(join(paths.hub, 'hub.json'), 'utf8'),
    readFileSync(join(paths.hub, 'http-token'), 'utf8'),
  ].join('\n---\n');
}

beforeAll(async () => {
  ({ home, remove: removeHome } = hubHome());
  folders = skillFolders();
  const added = addBoard(home, join(home, 'count.txt'));
  expect(added.status, added.stderr).toBe(0);
  const skill = folders.write('pdf-forms', { 'SKILL.md': skillMd('pdf-forms', 'Fill in PDF forms.') });
  folders.write('outside', { 'secret.txt': BESIDE });
  for (const args of [
    ['hub', 'skills', 'add', skill],
    ['hub', 'profiles', 'create', 'work', '--mode', 'direct', '--namespaces', 'board'],
  ]) {
    const done = cli(home, args);
    expect(done.status, done.stderr).toBe(0);
  }
  const served = await startServe(home);
  stopServe = served.stop;
  const token = readFileSync(served.tokenFile, 'utf8').trim();
  const { hubId } = JSON.parse(
    readFileSync(join(homePaths({ CAPABILITIES_HOME: home }).hub, 'hub.json'), 'utf8'),
  ) as { hubId: string };
  expect(hubId).toMatch(/^hub_/);
  secrets = [token, hubId, BESIDE];
  http = await httpClient(served.url, token, 'auto');
  stdio = (await stdioClient(home, 'auto')).client;
  direct = (await stdioClient(home, 'auto', {}, 'work')).client;
  baseline = configuration();
}, 180_000);

afterAll(async () => {
  await Promise.all([stdio, http, direct].map((client) => client?.close()));
  await stopServe?.();
  folders?.remove();
  removeHome?.();
}, 60_000);

/** The configuration is byte-identical to before, and no answer held what the hub keeps to itself. */
function unchanged(answers: unknown[]): void {
  expect(configuration()).toBe(baseline);
  const said = JSON.stringify(answers);
  for (const secret of secrets) expect(said).not.toContain(secret);
}

describe('I8 on the local hub: what only the local hub serves offers nothing that configures', () => {
  it('resources are the skills alone, over stdio and HTTP', async () => {
    const answers: unknown[] = [];
    for (const client of [stdio, http]) {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['skill://pdf-forms/SKILL.md']);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['skill://{+path}']);
      answers.push(resources, resourceTemplates);
    }
    unchanged(answers);
  }, 60_000);

  it('a direct profile offers the board’s tools and nothing of the hub', async () => {
    const { tools } = await direct.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.name).toMatch(/^board[._](list_posts|post|slow_post)$/);
    unchanged([tools]);
  }, 60_000);
});

describeConfiguration({
  name: 'local',
  clients: () => [stdio, http],
  unchanged: async (answers) => unchanged(answers),
  quotesUndefinedNames: true,
  noSuchMember: /^TypeError: (cannot read property|not a function)/,
  hostModule: join(REPO, 'local', 'cli', 'main.ts'),
  ownUrls: () => [
    `file://${join(homePaths({ CAPABILITIES_HOME: home }).hub, 'http-token')}`,
    'http://127.0.0.1:1/mcp',
  ],
});

describe('I8: arguments naming the hub’s files read nothing', () => {
  it('search, describe and execute’s resume with paths to the token, hub.json and the database', async () => {
    const paths = homePaths({ CAPABILITIES_HOME: home });
    const named = [
      '../hub/http-token',
      join(paths.hub, 'http-token'),
      `file://${join(paths.hub, 'hub.json')}`,
      paths.db,
      'skill:../outside/secret.txt',
      'skill:pdf-forms/../../outside/secret.txt',
    ];
    const answers: string[] = [];
    for (const client of [stdio, http]) {
      for (const target of named) {
        answers.push(
          textOf(await client.callTool({ name: 'search', arguments: { query: target.slice(0, 200) } })),
        );
        answers.push(
          textOf(
            await client.callTool({
              name: 'search',
              arguments: { query: '', namespace: target.slice(0, 100) },
            }),
          ),
        );
        answers.push(textOf(await client.callTool({ name: 'describe', arguments: { targets: [target] } })));
        const resumed = await client.callTool({
          name: 'execute',
          arguments: { resume: target.slice(0, 100) },
        });
        expect(resumed.isError).toBe(true);
        answers.push(textOf(resumed));
      }
    }
    unchanged(answers);
  }, 120_000);

  it.each([
    'skill://../outside',
    'skill://..%2Foutside%2Fsecret.txt',
    'skill://pdf-forms/../../outside/secret.txt',
    'skill://pdf-forms%2F..%2F..%2Foutside%2Fsecret.txt',
    'skill://%2e%2e',
    'skill://pdf-forms/%2e%2e/%2e%2e/outside/secret.txt',
    'skill://pdf-forms/..%2F..%2Foutside%2Fsecret.txt',
    'skill://pdf-forms/%2Fetc%2Fpasswd',
    'skill://pdf-forms',
    'skill:///etc/passwd',
    'file:///etc/passwd',
  ])(
    'a resource read of %s is refused',
    async (uri) => {
      const answers: unknown[] = [];
      for (const client of [stdio, http]) {
        const read = await client.readResource({ uri }).then(
          (answer) => answer,
          (error: unknown) => String(error),
        );
        expect(typeof read, JSON.stringify(read)).toBe('string');
        answers.push(read);
      }
      unchanged(answers);
    },
    60_000,
  );
});
