/**
 * The import plan, pure: duplicates merged with every origin kept, namespaces valid, unique and
 * stable, credentials classified (plaintext, in a URL, in an argument, references in each
 * harness's syntax), never a secret value in anything printable, and references resolved from
 * a given environment.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Namespace } from '../../engine/contracts/names.ts';
import type { FoundServer, FoundTransport, HarnessId, Interpolation } from '../../local/import/found.ts';
import { nodeHarnessFiles } from '../../local/import/node-files.ts';
import { planImport } from '../../local/import/plan.ts';
import { readHarnesses } from '../../local/import/read-harnesses.ts';
import { resolveCredentials } from '../../local/import/resolve.ts';
import { secretName, tokenShaped, urlSecrets } from '../../local/import/secret-shape.ts';

const ref = (name: string) => `\${${name}}`;

function found(
  harness: HarnessId,
  name: string,
  transport: FoundTransport,
  more: Partial<FoundServer> = {},
): FoundServer {
  const interpolation: Interpolation =
    harness === 'cursor' ? 'env-colon' : harness === 'claude-code' ? 'braces-default' : 'none';
  return {
    harness,
    file: `/home/ada/${harness}.json`,
    scope: 'user',
    name,
    transport,
    disabled: false,
    interpolation,
    ...more,
  };
}

const stdio = (command: string, args: string[], env: Record<string, string> = {}): FoundTransport => ({
  kind: 'stdio',
  command,
  args,
  env,
});
const http = (url: string, headers: Record<string, string> = {}): FoundTransport => ({
  kind: 'http',
  url,
  headers,
});

const GITHUB_TOKEN = 'ghp_fixtureNotARealToken00000000000009';
const LINEAR_KEY = 'lin_api_fixtureNotARealKey000000000';

const servers: FoundServer[] = [
  found(
    'claude-code',
    'github',
    stdio('npx', ['-y', '@modelcontextprotocol/server-github'], {
      GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN,
    }),
  ),
  found(
    'cursor',
    'gh',
    stdio('C:\\Program Files\\nodejs\\npx.cmd', ['-y', '@modelcontextprotocol/server-github'], {
      GITHUB_PERSONAL_ACCESS_TOKEN: `\${env:GITHUB_PERSONAL_ACCESS_TOKEN}`,
      GITHUB_HOST: 'github.example.com',
    }),
  ),
  found(
    'claude-desktop',
    'mcp-server-linear',
    stdio('npx', ['-y', 'mcp-server-linear'], { LINEAR_API_KEY: LINEAR_KEY }),
  ),
  found('cursor', 'linear', http('https://mcp.linear.app/mcp', { Authorization: `Bearer ${LINEAR_KEY}` })),
  found(
    'claude-code',
    'linear-remote',
    http('https://mcp.linear.app/mcp/', { Authorization: `Bearer \${LINEAR_API_KEY}` }),
    {
      disabled: true,
    },
  ),
  found(
    'claude-desktop',
    '@modelcontextprotocol/server-postgres',
    stdio('npx', ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://shop:hunter2@db/shop']),
  ),
  found('cursor', 'tavily', http('https://mcp.tavily.com/mcp/?tavilyApiKey=tvly-fixture0000000000')),
  found(
    'claude-desktop',
    'brave',
    stdio('npx', ['-y', '@modelcontextprotocol/server-brave-search', '--api-key', 'BSA-fixture-0001']),
  ),
  found(
    'claude-code',
    'context7',
    stdio('npx', ['-y', '@upstash/context7-mcp'], {
      CONTEXT7_API_KEY: `\${CONTEXT7_API_KEY:-ctx7sk-fixture-default}`,
    }),
  ),
];

const SECRETS = [
  GITHUB_TOKEN,
  LINEAR_KEY,
  'hunter2',
  'tvly-fixture0000000000',
  'BSA-fixture-0001',
  'ctx7sk-fixture-default',
];

describe('planImport', () => {
  const plan = planImport(servers, {
    existing: [{ kind: 'mcp-http', namespace: 'linear', url: 'https://elsewhere.example/mcp' }],
  });
  const item = (namespace: string) => {
    const found = plan.items.find((i) => i.namespace === namespace);
    if (!found) throw new Error(`no item ${namespace} in ${plan.items.map((i) => i.namespace).join(', ')}`);
    return found;
  };

  it('merges the same command and arguments under other names and harnesses, keeping every origin', () => {
    expect(item('github').origins).toEqual([
      {
        harness: 'claude-code',
        name: 'github',
        file: '/home/ada/claude-code.json',
        scope: 'user',
        project: undefined,
      },
      { harness: 'cursor', name: 'gh', file: '/home/ada/cursor.json', scope: 'user', project: undefined },
    ]);
    // The other origin's extra setting joins the first's env.
    expect(item('github').transport).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '<secret>', GITHUB_HOST: 'github.example.com' },
    });
  });

  it('merges the same URL (a trailing slash aside), and is disabled only when every origin is', () => {
    const remote = plan.items.filter(
      (i) => i.transport.kind === 'http' && i.transport.url.startsWith('https://mcp.linear.app'),
    );
    expect(remote).toHaveLength(1);
    expect(remote[0]?.origins.map((o) => o.name)).toEqual(['linear-remote', 'linear']);
    expect(remote[0]?.disabled).toBe(false);
  });

  it('proposes valid namespaces from names and packages, unique against the hub and each other', () => {
    const namespaces = plan.items.map((i) => i.namespace);
    expect(namespaces).toEqual([
      'context7',
      'github',
      'linear_remote',
      'postgres',
      'brave',
      'linear2',
      'tavily',
    ]);
    expect(new Set(namespaces).size).toBe(namespaces.length);
    for (const namespace of namespaces) expect(Namespace.safeParse(namespace).success).toBe(true);
  });

  it('is stable: the same servers in any order give the same plan', () => {
    const again = planImport([...servers].reverse(), {
      existing: [{ kind: 'mcp-http', namespace: 'linear', url: 'https://elsewhere.example/mcp' }],
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(plan));
  });

  it('keeps plaintext secrets apart, with their values, for the secret store', () => {
    expect(plan.credentials.get('github')).toEqual([
      { kind: 'env', name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: GITHUB_TOKEN },
    ]);
    expect(plan.credentials.get('linear2')).toEqual([
      { kind: 'env', name: 'LINEAR_API_KEY', value: LINEAR_KEY },
    ]);
    expect(plan.credentials.get('postgres')).toEqual([
      { kind: 'arg', name: 'args[2]', value: 'postgresql://shop:hunter2@db/shop' },
    ]);
    expect(plan.credentials.get('tavily')).toEqual([
      { kind: 'url', name: 'tavilyApiKey', value: 'tvly-fixture0000000000' },
    ]);
    expect(plan.credentials.get('brave')).toEqual([
      { kind: 'arg', name: '--api-key', value: 'BSA-fixture-0001' },
    ]);
  });

  it(`turns references into reference credentials, printed as \${VAR} without their defaults`, () => {
    expect(item('context7').transport).toMatchObject({ env: { CONTEXT7_API_KEY: ref('CONTEXT7_API_KEY') } });
    expect(item('context7').needs).toEqual([
      { kind: 'reference', where: 'env', name: 'CONTEXT7_API_KEY', variable: 'CONTEXT7_API_KEY' },
    ]);
    expect(item('linear_remote').transport).toMatchObject({
      headers: { Authorization: `Bearer ${ref('LINEAR_API_KEY')}` },
    });
  });

  it('never holds a secret value in its printable parts', () => {
    const printable = [
      JSON.stringify(plan),
      JSON.stringify(plan.toJSON()),
      JSON.stringify(plan.items),
      String(plan),
    ];
    for (const text of printable) for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(JSON.stringify(plan)).toContain('<secret>');
    expect(item('postgres').transport).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-postgres', 'postgresql://<secret>@db/shop'],
    });
    expect(item('tavily').transport).toMatchObject({
      url: 'https://mcp.tavily.com/mcp/?tavilyApiKey=<secret>',
    });
  });

  it('never prints a secret from the fixture homes either', () => {
    const linux = join(import.meta.dirname, '../fixtures/harnesses/linux');
    const scan = readHarnesses(
      nodeHarnessFiles({
        home: join(linux, 'home'),
        cwd: join(linux, 'project'),
        env: {},
        platform: 'linux',
      }),
    );
    const fixturePlan = planImport(
      scan.harnesses.flatMap((h) => h.servers),
      { existing: [] },
    );
    const text = JSON.stringify(fixturePlan);
    for (const secret of [
      'ghp_fixture',
      'ntn_fixture',
      'hunter2',
      'exa-fixture',
      'fc-fixture',
      'tvly-fixture',
      'xoxb-fixture',
      'sntrys_fixture',
      'ctx7sk-fixture',
    ]) {
      expect(text).not.toContain(secret);
    }
    const github = fixturePlan.items.find((i) => i.namespace === 'github');
    expect(github?.origins.map((o) => o.harness)).toEqual([
      'claude-code',
      'claude-desktop',
      'codex',
      'cursor',
      'hermes',
    ]);
  });
});

describe('resolveCredentials', () => {
  const plan = planImport(servers, { existing: [] });

  it('fills references from the environment given, the harness default when unset', () => {
    const remote = plan.credentials.get('linear_remote') ?? [];
    expect(resolveCredentials(remote, { LINEAR_API_KEY: 'lin_from_env' })).toEqual({
      values: [{ kind: 'header', name: 'Authorization', value: 'Bearer lin_from_env' }],
      missing: [],
    });
    const context7 = plan.credentials.get('context7') ?? [];
    expect(resolveCredentials(context7, {})).toEqual({
      values: [{ kind: 'env', name: 'CONTEXT7_API_KEY', value: 'ctx7sk-fixture-default' }],
      missing: [],
    });
  });

  it('names what is unset, and passes plaintext values through', () => {
    const github = plan.credentials.get('github') ?? [];
    expect(resolveCredentials(github, {}).values).toEqual([
      { kind: 'env', name: 'GITHUB_PERSONAL_ACCESS_TOKEN', value: GITHUB_TOKEN },
    ]);
    const remote = plan.credentials.get('linear_remote') ?? [];
    expect(resolveCredentials(remote, {})).toEqual({
      values: [],
      missing: [{ name: 'Authorization', variable: 'LINEAR_API_KEY' }],
    });
  });
});

describe("the hub's own entry", () => {
  it('is never imported into the hub, whatever its name or the path it runs from', () => {
    const plan = planImport(
      [
        found(
          'claude-code',
          'capabilities',
          stdio('/opt/capabilities/bin/capabilities', ['hub', 'serve', '--stdio', '--profile', 'default']),
        ),
        found(
          'cursor',
          'my-hub',
          stdio('node', ['/opt/capabilities/bin/capabilities', 'hub', 'serve', '--stdio']),
        ),
        found('cursor', 'capabilities-docs', stdio('npx', ['-y', 'capabilities-docs'])),
      ],
      { existing: [] },
    );
    expect(plan.hubEntries.map((o) => o.name)).toEqual(['capabilities', 'my-hub']);
    expect(plan.items.map((i) => i.namespace)).toEqual(['capabilities_docs']);
  });
});

describe('secret shapes', () => {
  it('tells credentials from settings by name', () => {
    const secret = [
      'GITHUB_PERSONAL_ACCESS_TOKEN',
      'OPENAI_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
      'Authorization',
      'X-Api-Key',
      'apiKey',
      'SLACK_BOT_TOKEN',
    ];
    const setting = [
      'SLACK_TEAM_ID',
      'MAX_TOKENS',
      'LOG_LEVEL',
      'KEY_FILE_PATH',
      'GITHUB_HOST',
      'MEMORY_FILE_PATH',
    ];
    for (const name of secret) expect([name, secretName(name)]).toEqual([name, true]);
    for (const name of setting) expect([name, secretName(name)]).toEqual([name, false]);
  });

  it('finds a password in a URL and a token-shaped value under any name', () => {
    expect(urlSecrets('postgresql://shop:hunter2@db:5432/shop')).toEqual({
      redacted: 'postgresql://<secret>@db:5432/shop',
      secrets: [{ name: 'userinfo', value: 'shop:hunter2' }],
    });
    expect(urlSecrets('https://mcp.example.com/mcp?team=a').secrets).toEqual([]);
    expect(tokenShaped('ghp_fixtureNotARealToken00000000000009')).toBe(true);
    expect(tokenShaped('Bearer sk-fixture00000000000000000')).toBe(true);
    expect(tokenShaped('us-east-1')).toBe(false);
  });
});
