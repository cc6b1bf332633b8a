/**
 * I8, "The model cannot change configuration" (spec: Security and approvals: "Configuration is
 * not a tool either. No MCP tool can add sources, change connections, edit policies or decide
 * approvals, so a prompt-injected model cannot grant itself access"). No MCP path adds, changes
 * or removes a source, connection, policy, profile or skill, reads the hub's files or tokens, or
 * reaches the CLI.
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
 * | MCP, code mode    | list tools, prompts, resources and templates over stdio and HTTP                | search/describe/execute; skill:// only |
 * | MCP, direct mode  | a direct profile's tools                                                        | the board's tools, nothing of the hub |
 * | MCP execute code  | every global and every `hub.*` member, own and inherited                        | nothing that configures       |
 * | MCP execute code  | `hub.sources.add`, `hub.policy.set`, `hub.profiles.create`, `hub.skills.add`, `hub.approve` | TypeError; unchanged |
 * | MCP execute code  | `process`, `require('fs')`, `import('node:fs')`, the CLI's module, `Function('return process')` | refused; unchanged |
 * | MCP execute code  | `fetch` of a `file://` URL of the hub's token, and of the hub's own /mcp         | no way out; unchanged         |
 * | MCP search/describe/resume | arguments naming the hub's files (`../hub/http-token`, absolute paths, file://) | nothing read |
 * | MCP resources     | a skill read outside its folder: `skill://../`, encoded, a path under the skill  | refused; nothing read        |
 *
 * Also held by: test/node/surface-stdio.test.ts, test/node/surface-http.test.ts and
 * test/node/surface-empty-hub.test.ts (the three tools), test/node/skills-surface.test.ts (skills as
 * resources), test/node/profiles-visibility.test.ts (what a profile shows), test/node/sandbox.test.ts
 * and test/node/sandbox-quickjs.test.ts (the guest's globals), test/architecture.test.ts (the CLI and
 * the pages reach the store only through the engine), test/person-input.test.ts (decisions; I2),
 * test/invariants/i2-decisions.test.ts (the guest's `hub` offers search, describe and read only), and
 * test/invariants/i8-configuration.workers.test.ts (this file's hosted side).
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

/** Runs `code` through execute and returns what came back (an envelope, or an error result). */
async function run(client: Client, code: string) {
  const result = await client.callTool({ name: 'execute', arguments: { code } });
  return { text: textOf(result), envelope: result.structuredContent };
}

describe('I8: the MCP surface offers nothing that configures', () => {
  it('code mode is search, describe and execute over stdio and HTTP; resources are the skills alone', async () => {
    const answers: unknown[] = [];
    for (const client of [stdio, http]) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
      expect(client.getServerCapabilities()?.prompts).toBeUndefined();
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(['skill://pdf-forms/SKILL.md']);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['skill://{+path}']);
      answers.push(tools, resources, resourceTemplates);
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

describe('I8: code inside execute cannot reach configuration, files or the CLI', () => {
  const CONFIGURING =
    /source|connection|polic|profile|skill|config|approve|decide|auth|secret|token|^process$|^require$|Deno|Bun/i;

  it('no global and no `hub` member configures', async () => {
    const code = `
      const own = (o) => { const names = []; for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) names.push(...Object.getOwnPropertyNames(p)); return names; };
      return { globals: Object.getOwnPropertyNames(globalThis), hub: own(hub) };
    `;
    const answers = [];
    for (const client of [stdio, http]) {
      const { envelope } = await run(client, code);
      expect(envelope).toMatchObject({ status: 'completed' });
      const result = (envelope as { result: { globals: string[]; hub: string[] } }).result;
      expect(result.hub.filter((name) => !['length', 'name', 'prototype'].includes(name)).sort()).toEqual([
        'describe',
        'read',
        'search',
      ]);
      expect(result.globals.filter((name) => CONFIGURING.test(name))).toEqual([]);
      answers.push(envelope);
    }
    unchanged(answers);
  }, 60_000);

  it.each([
    ['hub.sources.add', 'return await hub.sources.add({ url: "https://evil.example/mcp" })'],
    ['hub.policy.set', 'return await hub.policy.set("board.post", "allow")'],
    ['hub.profiles.create', 'return await hub.profiles.create("evil", { namespaces: "all" })'],
    ['hub.skills.add', 'return await hub.skills.add("/")'],
    ['hub.approve', 'return await hub.approve("run_x", "always")'],
    ['hub.connections', 'return await hub.connections.board.set("token", "x")'],
  ])(
    '%s is no such thing',
    async (_name, code) => {
      const { envelope, text } = await run(http, code);
      expect(envelope).toMatchObject({
        status: 'failed',
        error: {
          code: 'uncaught',
          message: expect.stringMatching(/^TypeError: (cannot read property|not a function)/),
        },
      });
      unchanged([envelope, text]);
    },
    60_000,
  );

  const cliModule = join(REPO, 'local', 'cli', 'main.ts');
  const IMPORT = {
    code: 'unsupported',
    message: expect.stringMatching(/^import is not available in the sandbox/),
  };
  const missing = (name: string) => ({
    code: 'uncaught',
    message: expect.stringMatching(new RegExp(`^ReferenceError: '${name}' is not defined`)),
  });
  it.each([
    ['process', 'return process.env', missing('process')],
    ['require', 'return require("fs").readFileSync("http-token", "utf8")', missing('require')],
    ['import("node:fs")', 'const fs = await import("node:fs"); return fs.readdirSync(".")', IMPORT],
    ['the CLI module', `const m = await import(${JSON.stringify(cliModule)}); return Object.keys(m)`, IMPORT],
    [
      'a static import',
      'import { readFileSync } from "node:fs"; return readFileSync("/etc/hostname", "utf8")',
      IMPORT,
    ],
    ['Function', 'return Function("return process.env")()', missing('Function')],
    [
      'the constructor’s constructor',
      'return hub.search.constructor("return this")().process.env',
      { code: 'uncaught', message: expect.stringMatching(/constructor is not available in the sandbox/) },
    ],
  ])(
    '%s reaches no host',
    async (_name, code, error) => {
      const answers = [];
      for (const client of [stdio, http]) {
        const { envelope, text } = await run(client, code);
        expect(envelope).toMatchObject({ status: 'failed', error });
        answers.push(envelope, text);
      }
      unchanged(answers);
    },
    60_000,
  );

  it('fetch of the token file and of the hub’s own /mcp go nowhere', async () => {
    const token = join(homePaths({ CAPABILITIES_HOME: home }).hub, 'http-token');
    const answers = [];
    for (const url of [`file://${token}`, 'http://127.0.0.1:1/mcp']) {
      const { envelope, text } = await run(
        http,
        `try { const r = await fetch(${JSON.stringify(url)}); return await r.text(); } catch (e) { return "refused: " + e.message; }`,
      );
      expect(envelope).toMatchObject({ status: 'completed', result: "refused: 'fetch' is not defined" });
      answers.push(envelope, text);
    }
    unchanged(answers);
  }, 60_000);
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
