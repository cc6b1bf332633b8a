/**
 * server.json, what the MCP registry lists (its 2025-12-11 schema): kept in step with
 * package.json (the name it is published under and `mcpName`, the version, twice; the README's
 * install lines too), in the
 * registry's camelCase shape, and its command line really serves the hub over stdio: the
 * package's arguments, run by this checkout's CLI with the official client, list the three tools.
 * The environment it names is what the stdio server reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BIN, cli, cliEnv, REPO, tempHome } from './cli-process.ts';

const Argument = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('positional'), value: z.string().min(1) }),
  z.strictObject({
    type: z.literal('named'),
    name: z.string().startsWith('--'),
    default: z.string().optional(),
    description: z.string().min(1),
  }),
]);
const ServerJson = z.strictObject({
  $schema: z.literal('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'),
  name: z.string().regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  title: z.string().min(1),
  description: z.string().min(1).max(100),
  version: z.string(),
  websiteUrl: z.url(),
  packages: z.tuple([
    z.strictObject({
      registryType: z.literal('npm'),
      registryBaseUrl: z.literal('https://registry.npmjs.org'),
      identifier: z.string(),
      version: z.string(),
      runtimeHint: z.literal('npx'),
      transport: z.strictObject({ type: z.literal('stdio') }),
      packageArguments: z.array(Argument),
      environmentVariables: z.array(
        z.strictObject({
          name: z.string().regex(/^CAPABILITIES_[A-Z_]+$/),
          description: z.string().min(1),
          format: z.literal('filepath').optional(),
          choices: z.array(z.string()).optional(),
        }),
      ),
    }),
  ]),
});

const read = (file: string) => JSON.parse(readFileSync(join(REPO, file), 'utf8')) as unknown;

describe('server.json', () => {
  const server = ServerJson.parse(read('server.json'));
  const pkg = read('package.json') as { name: string; version: string; mcpName: string };
  const [npm] = server.packages;

  it('is in the registry shape and in step with package.json, as the README is', () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(npm.identifier).toBe(pkg.name);
    expect(npm.version).toBe(pkg.version);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install -g ${pkg.name} `);
    expect(readme).toContain(`npx -y ${pkg.name}@${pkg.version} hub init --import`);
    expect(readme).toContain(`(name \`${pkg.mcpName}\`)`);
  });

  it('names the environment the stdio server reads, and only that', () => {
    const read = new Set<string>();
    for (const file of ['local/home.ts', 'local/pages/page-opener.ts']) {
      for (const match of readFileSync(join(REPO, file), 'utf8').matchAll(/\b(CAPABILITIES_[A-Z_]+)\b/g))
        read.add(match[1] as string);
    }
    expect(npm.environmentVariables.map((v) => v.name).sort()).toEqual([...read].sort());
  });

  it('its command line serves the hub over stdio', async () => {
    const { home, remove } = tempHome();
    try {
      expect(cli(home, ['hub', 'init']).status).toBe(0);
      const args = npm.packageArguments.flatMap((arg) =>
        arg.type === 'positional' ? [arg.value] : [arg.name, arg.default ?? ''],
      );
      expect(args).toEqual(['hub', 'serve', '--stdio', '--profile', 'default']);
      const env = Object.fromEntries(
        Object.entries(cliEnv(home)).filter((entry): entry is [string, string] => entry[1] !== undefined),
      );
      const client = new Client({ name: 'server-json-test', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: BIN, args, env }));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
          'describe',
          'execute',
          'search',
        ]);
      } finally {
        await client.close();
      }
    } finally {
      remove();
    }
  }, 60_000);
});
